#ifndef VODAPP_CCURL_SHIM_H
#define VODAPP_CCURL_SHIM_H

#include <curl/curl.h>

/*
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadics, which Swift cannot
 * call. One typed wrapper per argument type keeps the variadic calls here and nowhere else.
 */

static inline CURLcode vod_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }

static inline CURLcode vod_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vod_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vod_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vod_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vod_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode vod_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode vod_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode vod_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode vod_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/* CURLAUTH_BEARER is a cast-and-shift macro, which Swift does not import. */
static inline long vod_curlauth_bearer(void) { return (long)CURLAUTH_BEARER; }

static inline CURLMcode vod_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
