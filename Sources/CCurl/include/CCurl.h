#ifndef VODAPP_CCURL_H
#define VODAPP_CCURL_H

/* libcurl, loaded when it is first called rather than when vodapp starts.

   Linked, libcurl brings 40 libraries (OpenSSL, GnuTLS through LDAP and RTMP, SSH, IDN, …): about
   3 ms of ld.so's work and 5 MiB at every start, `vodapp --version` and a payload refused as
   invalid included, which never fetch. So vodapp names libcurl's functions (loader.c defines each
   one, hidden inside the executable) and the first call opens libcurl.so.4 and calls
   curl_global_init, once, under a lock. Callers use libcurl's own names and headers, unchanged. */

#include <curl/curl.h>
#include <locale.h>
#include <stdatomic.h>
#include <stddef.h>

/* Opens libcurl.so.4 and initialises it, once per process: 0 when every function was found, else
   -1 with the reason (which library or function is missing) in `why`. A libcurl function called
   when it failed ends the process with exit 69 and that reason on stderr: without libcurl nothing
   can be fetched, and with the package's dependencies it is always there. */
int vod_curl_load(char *why, size_t size);

/*
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadics, which Swift cannot
 * call. One typed wrapper per argument type keeps the variadic calls here and nowhere else.
 */

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

/*
 * A URL part with its host name in punycode. libcurl 7.88 converts through libidn2's
 * idn2_lookup_ul, which reads the host in the locale's charset: in the "C" locale a program starts
 * in, every non-ASCII host fails (as CURLUE_OUT_OF_MEMORY). A UTF-8 LC_CTYPE for this thread
 * alone, for this call alone, leaves the process's locale as it was.
 *
 * The locale is made once and kept: newlocale reads the locale's file from disk on every call,
 * which was 200 opens for a payload of 200 items, and every URL a playlist names.
 */
static inline locale_t vod_utf8_ctype(void) {
    static _Atomic(locale_t) made = (locale_t)0;
    locale_t utf8 = atomic_load(&made);
    if (utf8) return utf8;
    locale_t fresh = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (!fresh) return (locale_t)0;
    locale_t expected = (locale_t)0;
    if (atomic_compare_exchange_strong(&made, &expected, fresh)) return fresh;
    /* Another thread made it first: use that one. */
    freelocale(fresh);
    return expected;
}

static inline CURLUcode vod_url_get_punycode(CURLU *url, CURLUPart part, char **value) {
    locale_t utf8 = vod_utf8_ctype();
    locale_t previous = utf8 ? uselocale(utf8) : (locale_t)0;
    CURLUcode code = curl_url_get(url, part, value, CURLU_PUNYCODE);
    if (utf8) uselocale(previous);
    return code;
}

#endif
