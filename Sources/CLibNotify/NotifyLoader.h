#ifndef VODAPP_NOTIFYLOADER_H
#define VODAPP_NOTIFYLOADER_H

#include <stddef.h>

/* Opens libnotify.so.4, once per process: 0 when every function was found, else -1 with the
   reason in `why`. GLib must be loaded first (vod_glib_load). */
int vod_notify_load(char *why, size_t size);

#endif
