/* libxml2's reader functions vodapp uses, found in libxml2.so.2 when the first manifest is read
   (include/CLibXML2.h says why), and called under vodapp's names, as FFmpeg's are (CAVFormat).
   The compiler checks each pointer's type against libxml2's headers. */

#include "CLibXML2.h"
#include "CLibraryLoader.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <string.h>

#define VOD_XML_FUNCTIONS(F) \
    F(xmlTextReaderPtr, xmlReaderForMemory, (const char *buffer, int size, const char *URL, const char *encoding, int options), \
      (buffer, size, URL, encoding, options)) \
    F(int, xmlTextReaderRead, (xmlTextReaderPtr reader), (reader)) \
    F(int, xmlTextReaderNodeType, (xmlTextReaderPtr reader), (reader)) \
    F(const xmlChar *, xmlTextReaderConstName, (xmlTextReaderPtr reader), (reader)) \
    F(const xmlChar *, xmlTextReaderConstValue, (xmlTextReaderPtr reader), (reader)) \
    F(int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr reader), (reader)) \
    F(int, xmlTextReaderMoveToNextAttribute, (xmlTextReaderPtr reader), (reader)) \
    F(int, xmlTextReaderGetParserLineNumber, (xmlTextReaderPtr reader), (reader)) \
    F(xmlErrorPtr, xmlGetLastError, (void), ())

#define VOD_XML_PROCEDURES(F) \
    F(void, xmlFreeTextReader, (xmlTextReaderPtr reader), (reader)) \
    F(void, xmlInitParser, (void), ()) \
    F(void, xmlResetLastError, (void), ())

VOD_XML_FUNCTIONS(VOD_LIBRARY_POINTER)
VOD_XML_PROCEDURES(VOD_LIBRARY_POINTER)

static const char *const vod_names[] = {VOD_XML_FUNCTIONS(VOD_LIBRARY_NAME) VOD_XML_PROCEDURES(VOD_LIBRARY_NAME)};
static void **const vod_slots[] = {VOD_XML_FUNCTIONS(VOD_LIBRARY_SLOT) VOD_XML_PROCEDURES(VOD_LIBRARY_SLOT)};

/* libxml2 asks to be set up once before threads use it. */
static void vod_xml_ready(VodLibrary *library) {
    (void)library;
    vod_p_xmlInitParser();
}

static VodLibrary vod_library = VOD_LIBRARY("libxml2.so.2", "libxml2", vod_names, vod_slots, vod_xml_ready);

int vod_xml_load(char *why, size_t size) {
    return vod_library_load(&vod_library, why, size);
}

VodXMLReader *vod_xml_reader_new(const char *bytes, int size) {
    if (vod_library_load(&vod_library, NULL, 0) != 0) return NULL;
    vod_p_xmlResetLastError();
    /* No network; no DTD loaded (XML_PARSE_DTDLOAD is not asked) and no entity substituted
       (nor XML_PARSE_NOENT): a manifest that declares a DTD is refused at its DOCTYPE node, before
       any entity could be used (XMLElementTree). CDATA reads as text. Errors are returned, not
       printed. */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;
    return (VodXMLReader *)vod_p_xmlReaderForMemory(bytes, size, NULL, NULL, options);
}

void vod_xml_reader_free(VodXMLReader *reader) {
    if (reader != NULL) vod_p_xmlFreeTextReader((xmlTextReaderPtr)reader);
}

int vod_xml_reader_read(VodXMLReader *reader) {
    return vod_p_xmlTextReaderRead((xmlTextReaderPtr)reader);
}

int vod_xml_reader_node_type(VodXMLReader *reader) {
    return vod_p_xmlTextReaderNodeType((xmlTextReaderPtr)reader);
}

const char *vod_xml_reader_name(VodXMLReader *reader) {
    return (const char *)vod_p_xmlTextReaderConstName((xmlTextReaderPtr)reader);
}

const char *vod_xml_reader_value(VodXMLReader *reader) {
    return (const char *)vod_p_xmlTextReaderConstValue((xmlTextReaderPtr)reader);
}

int vod_xml_reader_is_empty_element(VodXMLReader *reader) {
    return vod_p_xmlTextReaderIsEmptyElement((xmlTextReaderPtr)reader);
}

int vod_xml_reader_next_attribute(VodXMLReader *reader) {
    return vod_p_xmlTextReaderMoveToNextAttribute((xmlTextReaderPtr)reader) == 1;
}

int vod_xml_reader_line(VodXMLReader *reader) {
    return vod_p_xmlTextReaderGetParserLineNumber((xmlTextReaderPtr)reader);
}

int vod_xml_reader_error(char *message, size_t size) {
    xmlErrorPtr error = vod_p_xmlGetLastError();
    if (error == NULL || error->message == NULL) {
        snprintf(message, size, "%s", "it ended early");
        return 0;
    }
    snprintf(message, size, "%s", error->message);
    /* libxml2's messages end with a newline. */
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) message[--length] = 0;
    return error->line;
}
