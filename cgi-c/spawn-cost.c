/*
 * What starting a CGI program costs, without a server: spawn PROGRAM N times and report, per spawn,
 * the wall time and the CPU time (this process and its children) of
 *   fork_exec    fork(2) + execv(2) + waitpid(2), what a classic CGI server does
 *   posix_spawn  posix_spawn(3) + waitpid(2), the vfork-style start a modern server can use
 * The program's output goes to /dev/null. Printed as "method wall_us=W cpu_us=C" lines.
 *
 *   spawn-cost PROGRAM [N]     (N defaults to 2000)
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static double cpu_us(void)
{
    struct rusage self, children;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    double us = 0;
    us += (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec + children.ru_utime.tv_sec + children.ru_stime.tv_sec) * 1e6;
    us += (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec + children.ru_utime.tv_usec + children.ru_stime.tv_usec);
    return us;
}

static int fork_exec(char *program, int devnull)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char *argv[] = {program, NULL};
        dup2(devnull, STDOUT_FILENO);
        execv(program, argv);
        _exit(127);
    }
    int status;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int spawn(char *program, posix_spawn_file_actions_t *actions)
{
    char *argv[] = {program, NULL};
    pid_t pid;
    if (posix_spawn(&pid, program, actions, NULL, argv, environ) != 0)
        return -1;
    int status;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: spawn-cost PROGRAM [N]\n");
        return 2;
    }
    char *program = argv[1];
    int n = argc > 2 ? atoi(argv[2]) : 2000;
    if (n < 1) {
        fprintf(stderr, "spawn-cost: N must be at least 1\n");
        return 2;
    }
    int devnull = open("/dev/null", O_WRONLY);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, devnull, STDOUT_FILENO);

    /* a few untimed runs: page cache, dynamic loader cache */
    for (int i = 0; i < 20; i++)
        if (fork_exec(program, devnull) != 0) {
            fprintf(stderr, "spawn-cost: %s did not run cleanly\n", program);
            return 1;
        }

    double wall = now_us(), cpu = cpu_us();
    for (int i = 0; i < n; i++)
        if (fork_exec(program, devnull) != 0)
            return 1;
    printf("fork_exec wall_us=%.1f cpu_us=%.1f\n", (now_us() - wall) / n, (cpu_us() - cpu) / n);

    wall = now_us();
    cpu = cpu_us();
    for (int i = 0; i < n; i++)
        if (spawn(program, &actions) != 0)
            return 1;
    printf("posix_spawn wall_us=%.1f cpu_us=%.1f\n", (now_us() - wall) / n, (cpu_us() - cpu) / n);
    return 0;
}
