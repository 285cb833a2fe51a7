[description]
The SPICE module probe: org.spice.module.jetty.SpiceProbeHandler, a core Handler, at /spice/module.

[depend]
server

[lib]
lib/spice/*.jar

[xml]
etc/spice-module.xml
