[description]
The SPICE FastCGI probe on Jetty: /spice/fcgi/spice through Jetty's FastCGI proxy to the resident
cgi-c/spice-fcgi on 127.0.0.1:${spice.fcgi.port}, which the start script runs beside Jetty.

[depend]
fcgi-proxy

[xml]
etc/spice-fastcgi.xml
