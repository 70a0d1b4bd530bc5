/* The libnotify functions vodapp uses, each defined here under its own name and forwarded to
   libnotify.so.4, opened by vod_notify_start (include/CLibNotify.h says why). Hidden, as GLib's
   are in CGio; the compiler checks each against libnotify's headers. */

#include "NotifyLoader.h"
#include "CLibraryLoader.h"

#include <libnotify/notify.h>
/* Each function used: F(return type, name, parameters, arguments). */
#define VOD_NOTIFY_FUNCTIONS(F) \
    F(gboolean, notify_init, (const char *app_name), (app_name)) \
    F(gboolean, notify_is_initted, (void), ()) \
    F(GList *, notify_get_server_caps, (void), ()) \
    F(NotifyNotification *, notify_notification_new, (const char *summary, const char *body, const char *icon), (summary, body, icon)) \
    F(gboolean, notify_notification_show, (NotifyNotification *notification, GError **error), (notification, error))

/* The functions that return nothing, in the same form. */
#define VOD_NOTIFY_PROCEDURES(F) \
    F(void, notify_notification_set_category, (NotifyNotification *notification, const char *category), (notification, category)) \
    F(void, notify_notification_set_app_name, (NotifyNotification *notification, const char *app_name), (notification, app_name)) \
    F(void, notify_notification_set_urgency, (NotifyNotification *notification, NotifyUrgency urgency), (notification, urgency)) \
    F(void, notify_notification_set_timeout, (NotifyNotification *notification, gint timeout), (notification, timeout)) \
    F(void, notify_notification_add_action, (NotifyNotification *notification, const char *action, const char *label, \
        NotifyActionCallback callback, gpointer user_data, GFreeFunc free_func), (notification, action, label, callback, user_data, free_func)) \
    F(void, notify_notification_clear_actions, (NotifyNotification *notification), (notification))

VOD_NOTIFY_FUNCTIONS(VOD_LIBRARY_POINTER)
VOD_NOTIFY_PROCEDURES(VOD_LIBRARY_POINTER)

static const char *const vod_names[] = {VOD_NOTIFY_FUNCTIONS(VOD_LIBRARY_NAME) VOD_NOTIFY_PROCEDURES(VOD_LIBRARY_NAME)};
static void **const vod_slots[] = {VOD_NOTIFY_FUNCTIONS(VOD_LIBRARY_SLOT) VOD_NOTIFY_PROCEDURES(VOD_LIBRARY_SLOT)};

VOD_LIBRARY_DEFINE("libnotify.so.4", "libnotify4", NULL, vod_notify_load, VOD_NOTIFY_FUNCTIONS, VOD_NOTIFY_PROCEDURES)
