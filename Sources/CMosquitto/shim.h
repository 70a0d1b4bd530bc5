#ifndef VODAPP_CMOSQUITTO_SHIM_H
#define VODAPP_CMOSQUITTO_SHIM_H

/* libmosquitto, the client library of the Eclipse Mosquitto broker (Debian's libmosquitto-dev).
   Its calls are plain C functions, so Swift calls them directly; mqtt_protocol.h names CONNACK's
   return codes. */
#include <mosquitto.h>
#include <mqtt_protocol.h>
/* glibc's heap figures (mallinfo2) and malloc_trim, which Swift's Glibc module leaves out: what a
   broker sends, libmosquitto keeps on the heap, where nothing else can see how much it holds. */
#include <malloc.h>

#endif
