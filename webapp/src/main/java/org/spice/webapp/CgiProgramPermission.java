package org.spice.webapp;

import java.io.File;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * Gives the CGI probe back its execute permission when the container unpacks spice.war.
 *
 * <p>The WAR records the program as executable, but containers expand WAR entries as plain files
 * (Tomcat's ExpandWar does), and Tomcat's CGI servlet, running the program directly, then fails with
 * "Permission denied". Only the one probe program is touched, and only for its owner, the server's user.
 */
public class CgiProgramPermission implements ServletContextListener {

    static final String PROGRAM = "/WEB-INF/cgi/spice";

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        String path = context.getRealPath(PROGRAM);
        if (path == null) {
            context.log("SPICE: " + PROGRAM + " is inside a packed WAR: deploy spice.war unpacked to run the CGI probe");
            return;
        }
        File program = new File(path);
        if (program.isFile() && !program.canExecute() && !program.setExecutable(true, true)) {
            context.log("SPICE: cannot make " + path + " executable: the CGI probe will answer 500");
        }
    }
}
