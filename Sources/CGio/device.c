/* What the device says about fetching now (include/CGio.h), through GIO's monitors. */

#include "CGio.h"

#include <gio/gio.h>
#include <stdlib.h>

struct VodDeviceConditions {
    gint metered;
    gint power_saver;
    /* Whether the first answers are in: the network monitor's at once (it starts synchronously),
       the power monitor's when the daemon has answered or is known to be absent. */
    gint network_known;
    gint power_known;
    GNetworkMonitor *network;
    GPowerProfileMonitor *power;
};

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

VodDeviceConditions *vod_device_conditions_new(void) {
    /* calloc, not g_new0: GLib may not be loaded yet, or at all. */
    return calloc(1, sizeof(VodDeviceConditions));
}

int vod_device_conditions_answered(const VodDeviceConditions *conditions) {
    return g_atomic_int_get(&conditions->network_known) != 0 && g_atomic_int_get(&conditions->power_known) != 0;
}

int vod_device_conditions_metered(const VodDeviceConditions *conditions) {
    return g_atomic_int_get(&conditions->metered) != 0;
}

int vod_device_conditions_power_saver(const VodDeviceConditions *conditions) {
    return g_atomic_int_get(&conditions->power_saver) != 0;
}

void vod_device_conditions_run(VodDeviceConditions *conditions) {
    if (vod_glib_load(NULL, 0) != 0) {
        /* Nothing can be known, and what is not known is not said. */
        g_atomic_int_set(&conditions->network_known, 1);
        g_atomic_int_set(&conditions->power_known, 1);
        return;
    }
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
