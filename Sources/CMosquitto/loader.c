/* libmosquitto's functions, each defined here under its own name and forwarded to
   libmosquitto.so.1, which the first call opens (include/CMosquitto.h says why). Hidden, as
   libcurl's are in CCurl: the compiler checks each against mosquitto.h. */

#include "CMosquitto.h"
#include "CLibraryLoader.h"

/* Each function used: F(return type, name, parameters, arguments). */
#define VOD_MOSQUITTO_FUNCTIONS(F) \
    F(int, mosquitto_lib_init, (void), ()) \
    F(struct mosquitto *, mosquitto_new, (const char *id, bool clean_session, void *obj), (id, clean_session, obj)) \
    F(int, mosquitto_int_option, (struct mosquitto *mosq, enum mosq_opt_t option, int value), (mosq, option, value)) \
    F(int, mosquitto_username_pw_set, (struct mosquitto *mosq, const char *username, const char *password), (mosq, username, password)) \
    F(int, mosquitto_tls_set, (struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile, \
        int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)), (mosq, cafile, capath, certfile, keyfile, pw_callback)) \
    F(int, mosquitto_connect_async, (struct mosquitto *mosq, const char *host, int port, int keepalive), (mosq, host, port, keepalive)) \
    F(int, mosquitto_reconnect_async, (struct mosquitto *mosq), (mosq)) \
    F(int, mosquitto_disconnect, (struct mosquitto *mosq), (mosq)) \
    F(int, mosquitto_loop, (struct mosquitto *mosq, int timeout, int max_packets), (mosq, timeout, max_packets)) \
    F(int, mosquitto_socket, (struct mosquitto *mosq), (mosq)) \
    F(int, mosquitto_subscribe, (struct mosquitto *mosq, int *mid, const char *sub, int qos), (mosq, mid, sub, qos)) \
    F(int, mosquitto_unsubscribe, (struct mosquitto *mosq, int *mid, const char *sub), (mosq, mid, sub)) \
    F(int, mosquitto_publish, (struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain), \
        (mosq, mid, topic, payloadlen, payload, qos, retain)) \
    F(int, mosquitto_sub_topic_check, (const char *topic), (topic)) \
    F(int, mosquitto_pub_topic_check, (const char *topic), (topic)) \
    F(const char *, mosquitto_strerror, (int mosq_errno), (mosq_errno)) \
    F(const char *, mosquitto_connack_string, (int connack_code), (connack_code))

/* The functions that return nothing, in the same form. */
#define VOD_MOSQUITTO_PROCEDURES(F) \
    F(void, mosquitto_destroy, (struct mosquitto *mosq), (mosq)) \
    F(void, mosquitto_connect_with_flags_callback_set, (struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int, int)), \
        (mosq, on_connect)) \
    F(void, mosquitto_log_callback_set, (struct mosquitto *mosq, void (*on_log)(struct mosquitto *, void *, int, const char *)), (mosq, on_log)) \
    F(void, mosquitto_message_callback_set, (struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)), \
        (mosq, on_message)) \
    F(void, mosquitto_publish_callback_set, (struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)), (mosq, on_publish)) \
    F(void, mosquitto_subscribe_callback_set, (struct mosquitto *mosq, void (*on_subscribe)(struct mosquitto *, void *, int, int, const int *)), \
        (mosq, on_subscribe))

VOD_MOSQUITTO_FUNCTIONS(VOD_LIBRARY_POINTER)
VOD_MOSQUITTO_PROCEDURES(VOD_LIBRARY_POINTER)

static const char *const vod_names[] = {VOD_MOSQUITTO_FUNCTIONS(VOD_LIBRARY_NAME) VOD_MOSQUITTO_PROCEDURES(VOD_LIBRARY_NAME)};
static void **const vod_slots[] = {VOD_MOSQUITTO_FUNCTIONS(VOD_LIBRARY_SLOT) VOD_MOSQUITTO_PROCEDURES(VOD_LIBRARY_SLOT)};

VOD_LIBRARY_DEFINE("libmosquitto.so.1", "libmosquitto1", NULL, vod_mosquitto_load, VOD_MOSQUITTO_FUNCTIONS, VOD_MOSQUITTO_PROCEDURES)
