#ifndef VODAPP_CLIBNOTIFY_SHIM_H
#define VODAPP_CLIBNOTIFY_SHIM_H

#include <libnotify/notify.h>
#include <string.h>

/* g_object_unref takes a gpointer; a typed wrapper keeps the casts out of Swift. */
static inline void vod_notification_unref(NotifyNotification *notification) {
    g_object_unref(notification);
}

/* The server's id of a notification (0 before it is shown). Setting it before the first show makes
   that show replace the notification of that id, as the spec's replaces_id does. */
static inline unsigned int vod_notification_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return (unsigned int)id;
}
static inline void vod_notification_set_id(NotifyNotification *notification, unsigned int id) {
    g_object_set(notification, "id", (gint)id, NULL);
}

/* Whether the notification server lists `capability` (such as "actions"). */
static inline int vod_server_has_capability(const char *capability) {
    GList *caps = notify_get_server_caps();
    int found = 0;
    for (GList *each = caps; each != NULL; each = each->next) {
        if (each->data != NULL && strcmp((const char *)each->data, capability) == 0) found = 1;
    }
    g_list_free_full(caps, g_free);
    return found;
}

/* An "Open folder" action and how it ended. The callbacks below are C because GLib calls them. */
typedef struct {
    GMainLoop *loop;
    char *folder;
    guint timer;
    /* 1 no answer in time, 2 the folder was opened, 3 the notification was closed,
       4 xdg-open could not be started */
    int outcome;
} VodFolderAction;

static void vod_folder_action_invoked(NotifyNotification *notification, char *action, gpointer data) {
    (void)notification; (void)action;
    VodFolderAction *wait = data;
    gchar *argv[] = {(gchar *)"xdg-open", wait->folder, NULL};
    gboolean started = g_spawn_async(NULL, argv, NULL,
                                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                     NULL, NULL, NULL, NULL);
    wait->outcome = started ? 2 : 4;
    g_main_loop_quit(wait->loop);
}

static void vod_folder_action_closed(NotifyNotification *notification, gpointer data) {
    (void)notification;
    VodFolderAction *wait = data;
    if (wait->outcome == 1) wait->outcome = 3;
    g_main_loop_quit(wait->loop);
}

static gboolean vod_folder_action_timeout(gpointer data) {
    VodFolderAction *wait = data;
    wait->timer = 0;
    g_main_loop_quit(wait->loop);
    return G_SOURCE_REMOVE;
}

/* Adds "Open folder" (and the same for a click on the notification) before it is shown. */
static inline VodFolderAction *vod_folder_action_add(NotifyNotification *notification, const char *folder, const char *label) {
    VodFolderAction *wait = g_new0(VodFolderAction, 1);
    wait->loop = g_main_loop_new(NULL, FALSE);
    wait->folder = g_strdup(folder);
    wait->outcome = 1;
    notify_notification_add_action(notification, "open-folder", label, vod_folder_action_invoked, wait, NULL);
    notify_notification_add_action(notification, "default", label, vod_folder_action_invoked, wait, NULL);
    g_signal_connect(notification, "closed", G_CALLBACK(vod_folder_action_closed), wait);
    return wait;
}

/* Takes the action off the notification and frees it: after the wait, or when it was never shown. */
static inline void vod_folder_action_discard(NotifyNotification *notification, VodFolderAction *wait) {
    g_signal_handlers_disconnect_by_data(notification, wait);
    notify_notification_clear_actions(notification);
    g_main_loop_unref(wait->loop);
    g_free(wait->folder);
    g_free(wait);
}

/* Waits for the answer on GLib's default main context, at most `milliseconds`, then discards the
   action and returns its outcome. Nothing else in vodapp iterates that context. */
static inline int vod_folder_action_wait(NotifyNotification *notification, VodFolderAction *wait, guint milliseconds) {
    wait->timer = g_timeout_add(milliseconds, vod_folder_action_timeout, wait);
    g_main_loop_run(wait->loop);
    if (wait->timer != 0) g_source_remove(wait->timer);
    int outcome = wait->outcome;
    vod_folder_action_discard(notification, wait);
    return outcome;
}

#endif
