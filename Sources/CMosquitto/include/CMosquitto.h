#ifndef VODAPP_CMOSQUITTO_H
#define VODAPP_CMOSQUITTO_H

/* libmosquitto, the client library of the Eclipse Mosquitto broker (Debian's libmosquitto-dev).
   Its calls are plain C functions, so Swift calls them directly; mqtt_protocol.h names CONNACK's
   return codes.

   It is loaded at its first call rather than linked, as libcurl is (CCurl.h says why): only
   `vodapp listen --mqtt` and `vodapp-push send mqtt://…` use it. loader.c defines each function
   used, hidden in the executable, and forwards it to libmosquitto.so.1. */
#include <mosquitto.h>
#include <mqtt_protocol.h>
/* glibc's heap figures (mallinfo2) and malloc_trim, which Swift's Glibc module leaves out: what a
   broker sends, libmosquitto keeps on the heap, where nothing else can see how much it holds. */
#include <malloc.h>
#include <stddef.h>

/* Opens libmosquitto.so.1, once per process: 0 when every function was found, else -1 with the
   reason in `why`. A libmosquitto function called when it failed ends the process with exit 69
   and that reason on stderr. */
int vod_mosquitto_load(char *why, size_t size);

#endif
