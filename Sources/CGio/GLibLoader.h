#ifndef VODAPP_GLIBLOADER_H
#define VODAPP_GLIBLOADER_H

/* Between loader.c and logs.c: the loader sets GLib's log writer as soon as GLib is loaded,
   before any other GLib call, when vodapp has given a sink. */

#include "CGio.h"

#include <glib.h>

VodLogSink vod_glib_log_sink(void);

/* The writer; its user data is the sink. */
GLogWriterOutput vod_glib_log_writer(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data);

#endif
