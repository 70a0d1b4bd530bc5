/* The GLib, GObject and GIO functions vodapp uses, each defined here under its own name and
   forwarded to libgio-2.0.so.0 (which brings GObject and GLib), opened by the first call
   (include/CGio.h says why). Hidden, as libcurl's are in CCurl: libnotify and GIO's own calls
   never reach them, and the compiler checks each against GLib's headers. */

#include "CGio.h"
#include "CLibraryLoader.h"
#include "GLibLoader.h"

#include <gio/gio.h>
#include <stdarg.h>

/* Each function used: F(return type, name, parameters, arguments). */
#define VOD_GLIB_FUNCTIONS(F) \
    F(gpointer, g_malloc0, (gsize n_bytes), (n_bytes)) \
    F(gpointer, g_malloc0_n, (gsize n_blocks, gsize n_block_bytes), (n_blocks, n_block_bytes)) \
    F(gchar *, g_strdup, (const gchar *str), (str)) \
    F(gchar *, g_strndup, (const gchar *str, gsize n), (str, n)) \
    F(int, g_strcmp0, (const char *str1, const char *str2), (str1, str2)) \
    F(GMainContext *, g_main_context_new, (void), ()) \
    F(gboolean, g_main_context_iteration, (GMainContext *context, gboolean may_block), (context, may_block)) \
    F(GMainLoop *, g_main_loop_new, (GMainContext *context, gboolean is_running), (context, is_running)) \
    F(guint, g_timeout_add, (guint interval, GSourceFunc function, gpointer data), (interval, function, data)) \
    F(gboolean, g_source_remove, (guint tag), (tag)) \
    F(gboolean, g_spawn_async, (const gchar *working_directory, gchar **argv, gchar **envp, GSpawnFlags flags, \
        GSpawnChildSetupFunc child_setup, gpointer user_data, GPid *child_pid, GError **error), \
        (working_directory, argv, envp, flags, child_setup, user_data, child_pid, error)) \
    F(GTypeInstance *, g_type_check_instance_cast, (GTypeInstance *instance, GType iface_type), (instance, iface_type)) \
    F(gulong, g_signal_connect_data, (gpointer instance, const gchar *detailed_signal, GCallback c_handler, gpointer data, \
        GClosureNotify destroy_data, GConnectFlags connect_flags), (instance, detailed_signal, c_handler, data, destroy_data, connect_flags)) \
    F(guint, g_signal_handlers_disconnect_matched, (gpointer instance, GSignalMatchType mask, guint signal_id, GQuark detail, \
        GClosure *closure, gpointer func, gpointer data), (instance, mask, signal_id, detail, closure, func, data)) \
    F(guint, g_bus_watch_name, (GBusType bus_type, const gchar *name, GBusNameWatcherFlags flags, \
        GBusNameAppearedCallback name_appeared_handler, GBusNameVanishedCallback name_vanished_handler, gpointer user_data, \
        GDestroyNotify user_data_free_func), (bus_type, name, flags, name_appeared_handler, name_vanished_handler, user_data, user_data_free_func)) \
    F(GDBusProxy *, g_dbus_proxy_new_finish, (GAsyncResult *res, GError **error), (res, error)) \
    F(GNetworkMonitor *, g_network_monitor_get_default, (void), ()) \
    F(gboolean, g_network_monitor_get_network_metered, (GNetworkMonitor *monitor), (monitor)) \
    F(GType, g_network_monitor_get_type, (void), ()) \
    F(GPowerProfileMonitor *, g_power_profile_monitor_dup_default, (void), ()) \
    F(gboolean, g_power_profile_monitor_get_power_saver_enabled, (GPowerProfileMonitor *monitor), (monitor)) \
    F(GType, g_power_profile_monitor_get_type, (void), ())

/* The functions that return nothing, in the same form. */
#define VOD_GLIB_PROCEDURES(F) \
    F(void, g_free, (gpointer mem), (mem)) \
    F(void, g_error_free, (GError *error), (error)) \
    F(void, g_list_free_full, (GList *list, GDestroyNotify free_func), (list, free_func)) \
    F(void, g_main_context_push_thread_default, (GMainContext *context), (context)) \
    F(void, g_main_loop_run, (GMainLoop *loop), (loop)) \
    F(void, g_main_loop_quit, (GMainLoop *loop), (loop)) \
    F(void, g_main_loop_unref, (GMainLoop *loop), (loop)) \
    F(void, g_object_unref, (gpointer object), (object)) \
    F(void, g_dbus_proxy_new, (GDBusConnection *connection, GDBusProxyFlags flags, GDBusInterfaceInfo *info, const gchar *name, \
        const gchar *object_path, const gchar *interface_name, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data), \
        (connection, flags, info, name, object_path, interface_name, cancellable, callback, user_data))

/* Functions vodapp does not define: g_object_get and g_object_set are variadic, and forwarded to
   their va_list forms; the log writer is set by the loader itself. */
#define VOD_GLIB_LOADER_ONLY(F) \
    F(void, g_log_set_writer_func, (GLogWriterFunc func, gpointer user_data, GDestroyNotify user_data_free), ()) \
    F(void, g_object_get_valist, (GObject *object, const gchar *first_property_name, va_list var_args), ()) \
    F(void, g_object_set_valist, (GObject *object, const gchar *first_property_name, va_list var_args), ())

VOD_GLIB_FUNCTIONS(VOD_LIBRARY_POINTER)
VOD_GLIB_PROCEDURES(VOD_LIBRARY_POINTER)
VOD_GLIB_LOADER_ONLY(VOD_LIBRARY_POINTER)

static const char *const vod_names[] = {
    VOD_GLIB_FUNCTIONS(VOD_LIBRARY_NAME) VOD_GLIB_PROCEDURES(VOD_LIBRARY_NAME) VOD_GLIB_LOADER_ONLY(VOD_LIBRARY_NAME)
};
static void **const vod_slots[] = {
    VOD_GLIB_FUNCTIONS(VOD_LIBRARY_SLOT) VOD_GLIB_PROCEDURES(VOD_LIBRARY_SLOT) VOD_GLIB_LOADER_ONLY(VOD_LIBRARY_SLOT)
};

/* GLib's log writer, before any other GLib call can log. */
static void vod_glib_ready(VodLibrary *library) {
    (void)library;
    VodLogSink sink = vod_glib_log_sink();
    if (sink != NULL) vod_p_g_log_set_writer_func(vod_glib_log_writer, (gpointer)sink, NULL);
}

/* dlsym on libgio finds GObject's and GLib's functions too: they are its dependencies. */
VOD_LIBRARY_DEFINE("libgio-2.0.so.0", "libglib2.0-0", vod_glib_ready, vod_glib_load, VOD_GLIB_FUNCTIONS, VOD_GLIB_PROCEDURES)

/* g_object_get and g_object_set, through their va_list forms. */
__attribute__((visibility("hidden"))) void g_object_get(gpointer object, const gchar *first_property_name, ...) {
    vod_library_require(&vod_library);
    va_list list;
    va_start(list, first_property_name);
    vod_p_g_object_get_valist(object, first_property_name, list);
    va_end(list);
}

__attribute__((visibility("hidden"))) void g_object_set(gpointer object, const gchar *first_property_name, ...) {
    vod_library_require(&vod_library);
    va_list list;
    va_start(list, first_property_name);
    vod_p_g_object_set_valist(object, first_property_name, list);
    va_end(list);
}
