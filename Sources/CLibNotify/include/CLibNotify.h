#ifndef VODAPP_CLIBNOTIFY_H
#define VODAPP_CLIBNOTIFY_H

/* The desktop notification, through libnotify, which is loaded when the first notification is
   posted rather than linked (include/CGio.h says why; libnotify brings gdk-pixbuf too). This
   header declares vodapp's own functions, with no GLib type in them; notification.c calls
   libnotify through loader.c, as CGio's files call GLib. */

#include <stddef.h>

/* NotifyNotification, and an "Open folder" action waiting for its answer. */
typedef struct VodNotification VodNotification;
typedef struct VodFolderAction VodFolderAction;

/* Loads GLib and libnotify.so.4 and initialises libnotify for `app_name`, once per process: 0 when
   it can post, else -1 with the reason in `why`. Nothing below may be called before it answered 0. */
int vod_notify_start(const char *app_name, char *why, size_t size);

/* Whether the notification server lists `capability` (such as "actions"). */
int vod_server_has_capability(const char *capability);

/* A notification that shows `summary`, `body` and `icon` in `category` for `app_name`, at normal
   urgency or low, for as long as the server's settings say (the user's, not ours). NULL when
   libnotify could not make one. */
VodNotification *vod_notification_new(const char *summary, const char *body, const char *icon, const char *category,
                                      const char *app_name, int urgent);
void vod_notification_unref(VodNotification *notification);

/* The server's id of a notification (0 before it is shown). Setting it before the first show makes
   that show replace the notification of that id, as the spec's replaces_id does. */
unsigned int vod_notification_id(VodNotification *notification);
void vod_notification_set_id(VodNotification *notification, unsigned int id);

/* Shows it: 1, or 0 with the server's or the bus's words in `error`. Blocks for the D-Bus round
   trip. */
int vod_notification_show(VodNotification *notification, char *error, size_t size);

/* Adds "Open folder" (and the same for a click on the notification) before it is shown. */
VodFolderAction *vod_folder_action_add(VodNotification *notification, const char *folder, const char *label);

/* Takes the action off the notification and frees it: after the wait, or when it was never shown. */
void vod_folder_action_discard(VodNotification *notification, VodFolderAction *action);

/* Waits for the answer on GLib's default main context, at most `milliseconds`, then discards the
   action and returns its outcome: 1 no answer in time, 2 the folder was opened, 3 the notification
   was closed, 4 xdg-open could not be started. Nothing else in vodapp iterates that context. */
int vod_folder_action_wait(VodNotification *notification, VodFolderAction *action, unsigned int milliseconds);

#endif
