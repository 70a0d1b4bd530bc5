/* libcurl's functions, each defined here under its own name and forwarded to libcurl.so.4, which
   the first call opens (include/CCurl.h says why). The definitions are hidden: they satisfy
   vodapp's own calls and are not exported, so libcurl's calls to its own functions never reach
   them. The compiler checks each one against curl.h's declaration. */

/* The type-checking macros of curl/typecheck-gcc.h would stand in for curl_easy_setopt's name. */
#define CURL_DISABLE_TYPECHECK 1
#include "CCurl.h"

#include "CLibraryLoader.h"

#include <stdarg.h>
#include <stdio.h>

/* Each function used: F(return type, name, parameters, arguments). */
#define VOD_CURL_FUNCTIONS(F) \
    F(curl_version_info_data *, curl_version_info, (CURLversion stamp), (stamp)) \
    F(CURL *, curl_easy_init, (void), ()) \
    F(CURLcode, curl_easy_pause, (CURL *handle, int bitmask), (handle, bitmask)) \
    F(CURLcode, curl_easy_perform, (CURL *curl), (curl)) \
    F(const char *, curl_easy_strerror, (CURLcode code), (code)) \
    F(CURLM *, curl_multi_init, (void), ()) \
    F(CURLMcode, curl_multi_add_handle, (CURLM *multi, CURL *easy), (multi, easy)) \
    F(CURLMcode, curl_multi_remove_handle, (CURLM *multi, CURL *easy), (multi, easy)) \
    F(CURLMcode, curl_multi_cleanup, (CURLM *multi), (multi)) \
    F(CURLMsg *, curl_multi_info_read, (CURLM *multi, int *queued), (multi, queued)) \
    F(CURLMcode, curl_multi_perform, (CURLM *multi, int *running), (multi, running)) \
    F(CURLMcode, curl_multi_poll, (CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready), \
        (multi, extra, count, timeout, ready)) \
    F(CURLMcode, curl_multi_wakeup, (CURLM *multi), (multi)) \
    F(const char *, curl_multi_strerror, (CURLMcode code), (code)) \
    F(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *data), (list, data)) \
    F(CURLU *, curl_url, (void), ()) \
    F(CURLUcode, curl_url_get, (CURLU *url, CURLUPart part, char **value, unsigned int flags), (url, part, value, flags)) \
    F(CURLUcode, curl_url_set, (CURLU *url, CURLUPart part, const char *value, unsigned int flags), (url, part, value, flags)) \
    F(const char *, curl_url_strerror, (CURLUcode code), (code))

/* The functions that return nothing, in the same form. */
#define VOD_CURL_PROCEDURES(F) \
    F(void, curl_easy_cleanup, (CURL *curl), (curl)) \
    F(void, curl_free, (void *pointer), (pointer)) \
    F(void, curl_slist_free_all, (struct curl_slist *list), (list)) \
    F(void, curl_url_cleanup, (CURLU *url), (url))

/* The variadic ones: libcurl reads exactly one argument after the option, an integer, a
   curl_off_t or a pointer, each passed as one 64-bit word on the platforms vodapp builds for. */
#define VOD_CURL_VARIADICS(F) \
    F(CURLcode, curl_easy_setopt, CURL *, CURLoption) \
    F(CURLcode, curl_easy_getinfo, CURL *, CURLINFO) \
    F(CURLMcode, curl_multi_setopt, CURLM *, CURLMoption)

_Static_assert(sizeof(long) == sizeof(void *) && sizeof(curl_off_t) == sizeof(void *),
               "a variadic argument of libcurl's is forwarded as one pointer-sized word");

VOD_CURL_FUNCTIONS(VOD_LIBRARY_POINTER)
VOD_CURL_PROCEDURES(VOD_LIBRARY_POINTER)
#define VOD_CURL_VARIADIC_POINTER(type, name, handle, option) static type (*vod_p_##name)(handle, option, ...);
VOD_CURL_VARIADICS(VOD_CURL_VARIADIC_POINTER)
/* Called by the loader alone (below), so vodapp does not define it. */
static CURLcode (*vod_p_curl_global_init)(long flags);

static const char *const vod_names[] = {
    VOD_CURL_FUNCTIONS(VOD_LIBRARY_NAME) VOD_CURL_PROCEDURES(VOD_LIBRARY_NAME) VOD_CURL_VARIADICS(VOD_LIBRARY_NAME) "curl_global_init"
};
static void **const vod_slots[] = {
    VOD_CURL_FUNCTIONS(VOD_LIBRARY_SLOT) VOD_CURL_PROCEDURES(VOD_LIBRARY_SLOT) VOD_CURL_VARIADICS(VOD_LIBRARY_SLOT)
    (void **)&vod_p_curl_global_init
};

/* curl_global_init here, under the loader's lock, rather than by whichever thread fetches first:
   it is not safe to call from two threads at once. */
static void vod_curl_ready(VodLibrary *library) {
    CURLcode code = vod_p_curl_global_init(CURL_GLOBAL_ALL);
    if (code != CURLE_OK)
        snprintf(library->failure, sizeof library->failure, "curl_global_init: %s", vod_p_curl_easy_strerror(code));
}

VOD_LIBRARY_DEFINE("libcurl.so.4", "libcurl4", vod_curl_ready, vod_curl_load, VOD_CURL_FUNCTIONS, VOD_CURL_PROCEDURES)

#define VOD_CURL_FORWARD(type, name, handle_type, option_type) \
    __attribute__((visibility("hidden"))) type name(handle_type handle, option_type option, ...) { \
        vod_library_require(&vod_library); \
        va_list list; \
        va_start(list, option); \
        void *value = va_arg(list, void *); \
        va_end(list); \
        return vod_p_##name(handle, option, value); \
    }
VOD_CURL_VARIADICS(VOD_CURL_FORWARD)
