[description]
The SPICE CGI probe on Jetty, which has no CGI servlet (removed in 12 after CVE-2023-36479):
Jetty's FastCGI proxy in front of fcgiwrap, which forks and executes the CGI program for every
request, as a CGI server does, on the Unix socket ${spice.fcgiwrap.socket}. /spice/cgi-bin/spice runs $JETTY_BASE/cgi-root/spice/cgi-bin/spice.

[depend]
fcgi-proxy

[xml]
etc/spice-cgi.xml
