/* libcurl, the OpenSSL flavour vodapp loads, brings GnuTLS in with libldap and librtmp, for LDAP
   and RTMP, protocols vodapp never enables. GnuTLS initialises itself when it is loaded (its
   random generator, its system priorities, p11-kit): 1 MiB of every delivery's resident memory,
   for a library nothing here calls. Before it does, it asks the executable whether to
   (GNUTLS_SKIP_GLOBAL_INIT in gnutls.h); libldap and librtmp call gnutls_global_init themselves
   before they use it, so the answer changes nothing for them. Release builds export this one
   symbol (Package.swift); debug builds export every symbol. */
__attribute__((visibility("default"), used)) int _gnutls_global_init_skip(void);

int _gnutls_global_init_skip(void) {
    return 1;
}
