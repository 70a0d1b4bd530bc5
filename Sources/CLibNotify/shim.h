#ifndef VODAPP_CLIBNOTIFY_SHIM_H
#define VODAPP_CLIBNOTIFY_SHIM_H

#include <libnotify/notify.h>

/* g_object_unref takes a gpointer; a typed wrapper keeps the casts out of Swift. */
static inline void vod_notification_unref(NotifyNotification *notification) {
    g_object_unref(notification);
}

#endif
