#ifndef VODAPP_CGIO_SHIM_H
#define VODAPP_CGIO_SHIM_H

#include <gio/gio.h>

/*
 * What the device says about fetching now, as GNOME asks applications to read it: GNetworkMonitor's
 * network-metered (from NetworkManager) and GPowerProfileMonitor's power-saver-enabled (from
 * power-profiles-daemon). Both monitors live on a thread of their own, in a main context of their
 * own that the thread iterates for the life of the process, so a listener sees changes as they
 * happen. Other threads read the atomics below, never the monitors.
 */
typedef struct {
    gint metered;
    gint power_saver;
    /* Whether the first answers are in: the network monitor's at once (it starts synchronously),
       the power monitor's when the daemon has answered or is known to be absent. */
    gint network_known;
    gint power_known;
    GNetworkMonitor *network;
    GPowerProfileMonitor *power;
} VodDeviceConditions;

#define VOD_POWER_PROFILES_NAME "net.hadess.PowerProfiles"
#define VOD_POWER_PROFILES_PATH "/net/hadess/PowerProfiles"

static void vod_device_metered_changed(GObject *object, GParamSpec *spec, gpointer data) {
    (void)spec;
    VodDeviceConditions *conditions = data;
    g_atomic_int_set(&conditions->metered, g_network_monitor_get_network_metered(G_NETWORK_MONITOR(object)));
}

static void vod_device_power_saver_changed(GObject *object, GParamSpec *spec, gpointer data) {
    (void)spec;
    VodDeviceConditions *conditions = data;
    g_atomic_int_set(&conditions->power_saver, g_power_profile_monitor_get_power_saver_enabled(G_POWER_PROFILE_MONITOR(object)));
    g_atomic_int_set(&conditions->power_known, 1);
}

/* GPowerProfileMonitor fetches the daemon's profile asynchronously and says nothing when it is not
   power-saver, so its first answer cannot be seen directly. This proxy is made the same way, for
   the same name, after the monitor's: the bus answers in order, so when it is ready, the monitor
   has its answer too. */
static void vod_device_power_proxy_ready(GObject *source, GAsyncResult *result, gpointer data) {
    (void)source;
    VodDeviceConditions *conditions = data;
    GDBusProxy *proxy = g_dbus_proxy_new_finish(result, NULL);
    if (proxy != NULL) g_object_unref(proxy);
    g_atomic_int_set(&conditions->power_saver, g_power_profile_monitor_get_power_saver_enabled(conditions->power));
    g_atomic_int_set(&conditions->power_known, 1);
}

static void vod_device_power_appeared(GDBusConnection *connection, const gchar *name, const gchar *owner, gpointer data) {
    (void)owner;
    g_dbus_proxy_new(connection, G_DBUS_PROXY_FLAGS_NONE, NULL, name, VOD_POWER_PROFILES_PATH, VOD_POWER_PROFILES_NAME,
                     NULL, vod_device_power_proxy_ready, data);
}

static void vod_device_power_vanished(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)connection; (void)name;
    VodDeviceConditions *conditions = data;
    g_atomic_int_set(&conditions->power_saver, 0);
    g_atomic_int_set(&conditions->power_known, 1);
}

/* The monitoring thread's body: makes the monitors in a main context of its own and iterates it;
   never returns. */
static inline void vod_device_conditions_run(VodDeviceConditions *conditions) {
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);

    conditions->network = g_network_monitor_get_default();
    g_atomic_int_set(&conditions->metered, g_network_monitor_get_network_metered(conditions->network));
    g_signal_connect(conditions->network, "notify::network-metered", G_CALLBACK(vod_device_metered_changed), conditions);
    g_atomic_int_set(&conditions->network_known, 1);

    conditions->power = g_power_profile_monitor_dup_default();
    if (conditions->power == NULL) {
        g_atomic_int_set(&conditions->power_known, 1);
    } else {
        g_signal_connect(conditions->power, "notify::power-saver-enabled", G_CALLBACK(vod_device_power_saver_changed), conditions);
        /* The same flags as the monitor's own watch, so that the same calls go out in the same order. */
        g_bus_watch_name(G_BUS_TYPE_SYSTEM, VOD_POWER_PROFILES_NAME, G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
                         vod_device_power_appeared, vod_device_power_vanished, conditions, NULL);
    }
    for (;;) g_main_context_iteration(context, TRUE);
}

/* GLib's log lines (libnotify's and GIO's among them) go to this function instead of stderr: the
   executable hands them to swift-log, so that they read as its other lines and obey -q and -v. */
typedef void (*VodLogSink)(int level, const char *domain, const char *message);

static GLogWriterOutput vod_glib_log_writer(GLogLevelFlags level, const GLogField *fields, gsize count, gpointer data) {
    const char *domain = NULL;
    char *message = NULL;
    for (gsize i = 0; i < count; i++) {
        if (g_strcmp0(fields[i].key, "GLIB_DOMAIN") == 0 && fields[i].length < 0) {
            domain = fields[i].value;
        } else if (g_strcmp0(fields[i].key, "MESSAGE") == 0) {
            message = fields[i].length < 0 ? g_strdup(fields[i].value) : g_strndup(fields[i].value, (gsize)fields[i].length);
        }
    }
    ((VodLogSink)data)((int)(level & G_LOG_LEVEL_MASK), domain, message);
    g_free(message);
    return G_LOG_WRITER_HANDLED;
}

/* Once, before any GLib call logs: GLib allows one writer per process. */
static inline void vod_route_glib_logs(VodLogSink sink) {
    g_log_set_writer_func(vod_glib_log_writer, (gpointer)sink, NULL);
}

#endif
