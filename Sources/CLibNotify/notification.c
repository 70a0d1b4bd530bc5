/* The desktop notification (include/CLibNotify.h), through libnotify. */

#include "CLibNotify.h"
#include "CGio.h"
#include "NotifyLoader.h"

#include <libnotify/notify.h>
#include <stdio.h>
#include <string.h>

/* A VodNotification is libnotify's NotifyNotification, under a name Swift can see without GLib. */
static NotifyNotification *vod_notify(VodNotification *notification) {
    return (NotifyNotification *)notification;
}

int vod_notify_start(const char *app_name, char *why, size_t size) {
    if (vod_glib_load(why, size) != 0 || vod_notify_load(why, size) != 0) return -1;
    if (notify_is_initted() || notify_init(app_name)) return 0;
    snprintf(why, size, "libnotify could not be initialised");
    return -1;
}

int vod_server_has_capability(const char *capability) {
    GList *caps = notify_get_server_caps();
    int found = 0;
    for (GList *each = caps; each != NULL; each = each->next) {
        if (each->data != NULL && strcmp((const char *)each->data, capability) == 0) found = 1;
    }
    g_list_free_full(caps, g_free);
    return found;
}

VodNotification *vod_notification_new(const char *summary, const char *body, const char *icon, const char *category,
                                      const char *app_name, int urgent) {
    NotifyNotification *notification = notify_notification_new(summary, body, icon);
    if (notification == NULL) return NULL;
    notify_notification_set_category(notification, category);
    notify_notification_set_app_name(notification, app_name);
    notify_notification_set_urgency(notification, urgent ? NOTIFY_URGENCY_NORMAL : NOTIFY_URGENCY_LOW);
    notify_notification_set_timeout(notification, NOTIFY_EXPIRES_DEFAULT);
    return (VodNotification *)notification;
}

void vod_notification_unref(VodNotification *notification) {
    g_object_unref(vod_notify(notification));
}

unsigned int vod_notification_id(VodNotification *notification) {
    gint id = 0;
    g_object_get(vod_notify(notification), "id", &id, NULL);
    return (unsigned int)id;
}

void vod_notification_set_id(VodNotification *notification, unsigned int id) {
    g_object_set(vod_notify(notification), "id", (gint)id, NULL);
}

int vod_notification_show(VodNotification *notification, char *error, size_t size) {
    GError *failure = NULL;
    if (notify_notification_show(vod_notify(notification), &failure)) return 1;
    snprintf(error, size, "%s", failure != NULL && failure->message != NULL ? failure->message : "unknown error");
    if (failure != NULL) g_error_free(failure);
    return 0;
}

/* An "Open folder" action and how it ended. The callbacks below are C because GLib calls them. */
struct VodFolderAction {
    GMainLoop *loop;
    char *folder;
    guint timer;
    /* 1 no answer in time, 2 the folder was opened, 3 the notification was closed,
       4 xdg-open could not be started */
    int outcome;
};

static void vod_folder_action_invoked(NotifyNotification *notification, char *name, gpointer data) {
    (void)notification; (void)name;
    VodFolderAction *action = data;
    gchar *argv[] = {(gchar *)"xdg-open", action->folder, NULL};
    gboolean started = g_spawn_async(NULL, argv, NULL,
                                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                     NULL, NULL, NULL, NULL);
    action->outcome = started ? 2 : 4;
    g_main_loop_quit(action->loop);
}

static void vod_folder_action_closed(NotifyNotification *notification, gpointer data) {
    (void)notification;
    VodFolderAction *action = data;
    if (action->outcome == 1) action->outcome = 3;
    g_main_loop_quit(action->loop);
}

static gboolean vod_folder_action_timeout(gpointer data) {
    VodFolderAction *action = data;
    action->timer = 0;
    g_main_loop_quit(action->loop);
    return G_SOURCE_REMOVE;
}

VodFolderAction *vod_folder_action_add(VodNotification *notification, const char *folder, const char *label) {
    VodFolderAction *action = g_new0(VodFolderAction, 1);
    action->loop = g_main_loop_new(NULL, FALSE);
    action->folder = g_strdup(folder);
    action->outcome = 1;
    notify_notification_add_action(vod_notify(notification), "open-folder", label, vod_folder_action_invoked, action, NULL);
    notify_notification_add_action(vod_notify(notification), "default", label, vod_folder_action_invoked, action, NULL);
    g_signal_connect(vod_notify(notification), "closed", G_CALLBACK(vod_folder_action_closed), action);
    return action;
}

void vod_folder_action_discard(VodNotification *notification, VodFolderAction *action) {
    g_signal_handlers_disconnect_by_data(vod_notify(notification), action);
    notify_notification_clear_actions(vod_notify(notification));
    g_main_loop_unref(action->loop);
    g_free(action->folder);
    g_free(action);
}

int vod_folder_action_wait(VodNotification *notification, VodFolderAction *action, unsigned int milliseconds) {
    action->timer = g_timeout_add(milliseconds, vod_folder_action_timeout, action);
    g_main_loop_run(action->loop);
    if (action->timer != 0) g_source_remove(action->timer);
    int outcome = action->outcome;
    vod_folder_action_discard(notification, action);
    return outcome;
}
