#ifndef VODAPP_CMOSQUITTO_SHIM_H
#define VODAPP_CMOSQUITTO_SHIM_H

/* libmosquitto, the client library of the Eclipse Mosquitto broker (Debian's libmosquitto-dev).
   Its calls are plain C functions, so Swift calls them directly; mqtt_protocol.h names CONNACK's
   return codes. */
#include <mosquitto.h>
#include <mqtt_protocol.h>

#endif
