#ifndef VODAPP_CLIBXML2_H
#define VODAPP_CLIBXML2_H

/* libxml2's reader, for DASH manifests, opened when the first manifest is read: linked (through
   FoundationXML's XMLParser), libxml2 brought ICU, liblzma and zlib to every start of vodapp, a
   third of a millisecond and a megabyte of memory for a format few deliveries meet.

   libxml2's headers are outside the compiler's search path, as GLib's are (CGio): this header
   shows Swift vodapp's own functions, with no libxml2 type. */

#include <stddef.h>

typedef struct VodXMLReader VodXMLReader;

/* What a node is (libxml2's xmlReaderTypes). */
enum {
    VOD_XML_ELEMENT = 1,
    VOD_XML_TEXT = 3,
    VOD_XML_CDATA = 4,
    VOD_XML_DOCUMENT_TYPE = 10,
    VOD_XML_WHITESPACE = 13,
    VOD_XML_SIGNIFICANT_WHITESPACE = 14,
    VOD_XML_END_ELEMENT = 15,
};

/* Opens libxml2.so.2, once per process: 0 when it can be used, else -1 with the reason in `why`. */
int vod_xml_load(char *why, size_t size);

/* A reader of the `size` bytes at `bytes`, which must outlive it: no network, no DTD loaded, no
   entity substituted, nothing printed. NULL when libxml2 is not loaded or has no memory. */
VodXMLReader *vod_xml_reader_new(const char *bytes, int size);
void vod_xml_reader_free(VodXMLReader *reader);

/* The next node: 1, 0 at the document's end, -1 on an error (`vod_xml_reader_error`). */
int vod_xml_reader_read(VodXMLReader *reader);
int vod_xml_reader_node_type(VodXMLReader *reader);
/* The node's name as written (with its prefix), and its value (a text's, an attribute's); NULL
   for none. Valid until the next read. */
const char *vod_xml_reader_name(VodXMLReader *reader);
const char *vod_xml_reader_value(VodXMLReader *reader);
int vod_xml_reader_is_empty_element(VodXMLReader *reader);
/* Moves to the element's next attribute: 1 when there is one, 0 when there is none left. */
int vod_xml_reader_next_attribute(VodXMLReader *reader);
/* The line the reader is at. */
int vod_xml_reader_line(VodXMLReader *reader);
/* Why the last read failed, on this thread, into `message`; its line, 0 when unknown. */
int vod_xml_reader_error(char *message, size_t size);

#endif
