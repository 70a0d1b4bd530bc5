/* GLib's log lines, to vodapp's sink (include/CGio.h). */

#include "CGio.h"
#include "GLibLoader.h"

#include <gio/gio.h>

static VodLogSink vod_sink;

void vod_route_glib_logs(VodLogSink sink) {
    __atomic_store_n(&vod_sink, sink, __ATOMIC_RELEASE);
}

static VodGLibLogLevel vod_level(GLogLevelFlags level) {
    if (level & G_LOG_LEVEL_ERROR) return VOD_GLIB_LOG_ERROR;
    if (level & G_LOG_LEVEL_CRITICAL) return VOD_GLIB_LOG_CRITICAL;
    if (level & G_LOG_LEVEL_WARNING) return VOD_GLIB_LOG_WARNING;
    if (level & G_LOG_LEVEL_MESSAGE) return VOD_GLIB_LOG_MESSAGE;
    if (level & G_LOG_LEVEL_INFO) return VOD_GLIB_LOG_INFO;
    return VOD_GLIB_LOG_DEBUG;
}

VodLogSink vod_glib_log_sink(void) {
    return __atomic_load_n(&vod_sink, __ATOMIC_ACQUIRE);
}

GLogWriterOutput vod_glib_log_writer(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    VodLogSink sink = data;
    const char *domain = NULL;
    char *message = NULL;
    for (gsize i = 0; i < count; i++) {
        if (g_strcmp0(fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0) {
            domain = fields[i].value;
        } else if (g_strcmp0(fields[i].key, "MESSAGE") == 0) {
            message = fields[i].length < 0 ? g_strdup(fields[i].value) : g_strndup(fields[i].value, (gsize)fields[i].length);
        }
    }
    sink(vod_level(level), domain, message);
    g_free(message);
    return G_LOG_WRITER_HANDLED;
}
