#ifndef VODAPP_CGIO_H
#define VODAPP_CGIO_H

/* GLib, GObject and GIO, for what the device says about fetching now and for GLib's log lines.

   They are loaded when first needed rather than linked: with libnotify and gdk-pixbuf, linked,
   they cost every start about 3 ms of ld.so's work and 4 MiB, `vodapp --version` included, and a
   delivery with `--no-notify` and nothing deferred never uses them. So this header declares
   vodapp's own functions, with no GLib type in them (Swift needs no GLib header to call them),
   and the C files behind it call GLib through loader.c, which defines each GLib function used,
   hidden in the executable, and forwards it to libgio-2.0.so.0 once loaded. */

#include <stddef.h>

/* Opens libgio-2.0.so.0 (with GObject and GLib), once per process: 0 when every function was
   found, else -1 with the reason in `why`. GLib's log lines are routed (below) before this
   returns. A GLib function called when it failed ends the process with exit 69. */
int vod_glib_load(char *why, size_t size);

/* What the device says about fetching now, as GNOME asks applications to read it: GNetworkMonitor's
   network-metered (from NetworkManager) and GPowerProfileMonitor's power-saver-enabled (from
   power-profiles-daemon). Both monitors live on a thread of their own, in a main context of their
   own that the thread iterates for the life of the process, so a listener sees changes as they
   happen. Other threads read the answers below, never the monitors. */
typedef struct VodDeviceConditions VodDeviceConditions;

/* The answers, none known yet. Never freed: the monitoring thread keeps it. */
VodDeviceConditions *vod_device_conditions_new(void);

/* The monitoring thread's body: makes the monitors in a main context of its own and iterates it,
   and never returns. Where GLib cannot be loaded it marks both answers known, and false, and
   returns at once. */
void vod_device_conditions_run(VodDeviceConditions *conditions);

/* Whether both first answers are in, and what they are (1 or 0); safe from any thread. */
int vod_device_conditions_answered(const VodDeviceConditions *conditions);
int vod_device_conditions_metered(const VodDeviceConditions *conditions);
int vod_device_conditions_power_saver(const VodDeviceConditions *conditions);

/* GLib's log lines (libnotify's and GIO's among them) go to a sink instead of stderr: the
   executable hands them to swift-log, so that they read as its other lines and obey -q and -v. */
typedef enum {
    VOD_GLIB_LOG_ERROR,
    VOD_GLIB_LOG_CRITICAL,
    VOD_GLIB_LOG_WARNING,
    VOD_GLIB_LOG_MESSAGE,
    VOD_GLIB_LOG_INFO,
    VOD_GLIB_LOG_DEBUG,
} VodGLibLogLevel;
typedef void (*VodLogSink)(VodGLibLogLevel level, const char *domain, const char *message);

/* Once, before anything loads GLib: the sink is installed as GLib's writer when GLib is loaded
   (GLib allows one writer per process), before any GLib call can log. */
void vod_route_glib_logs(VodLogSink sink);

#endif
