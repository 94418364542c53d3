import CLazyLibraries
import CLibXML2
import HLSCheck
import StreamSources

/// A libxml2 call that failed while writing a report.
package struct XMLWriterError: Error, Sendable, CustomStringConvertible {
    /// The libxml2 function that reported the failure.
    package var function: String
    /// Set when libxml2 itself could not be loaded (it is loaded on first use): the
    /// library, the loader's reason and the Debian package to install.
    package var unavailable: String? = nil

    /// Names the libxml2 function that failed, or the library that could not be loaded.
    package var description: String { unavailable ?? "libxml2 \(function) failed while writing the XML report" }
}

/// One libxml2 `xmlTextWriter`, the sole owner of it and of what it writes into, freed in
/// `deinit`. libxml2 does the escaping, so no markup is ever assembled from strings here.
///
/// It writes into a memory buffer (`finish` returns the text), or, given a `ReportSink`, hands
/// its output to the sink as libxml2 flushes it (every few kilobytes): a page of any size is
/// never held whole.
final class XMLDocumentWriter {
    private let buffer: xmlBufferPtr?
    private var writer: xmlTextWriterPtr?
    private let kind: Kind
    /// The sink and the first error it threw, for the C callback (`SinkContext`).
    private let sink: SinkContext?

    /// What the document is: XML (declaration, indented), or HTML written in the XML syntax that
    /// HTML parsers read the same way (`<!DOCTYPE html>`, no XML declaration, no indentation so
    /// that no whitespace appears between inline elements; see `fullEndElement`).
    enum Kind {
        case xml, html
    }

    /// What libxml2's write callback reaches through its context pointer.
    final class SinkContext {
        let sink: any ReportSink
        var error: (any Error)?
        init(_ sink: any ReportSink) { self.sink = sink }
    }

    /// Writes into memory; `finish` returns the document.
    init(_ kind: Kind = .xml) throws(XMLWriterError) {
        try Self.load()
        guard let buffer = xmlBufferCreate() else { throw XMLWriterError(function: "xmlBufferCreate") }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
            xmlBufferFree(buffer)
            throw XMLWriterError(function: "xmlNewTextWriterMemory")
        }
        self.buffer = buffer
        self.writer = writer
        self.kind = kind
        self.sink = nil
        try start()
    }

    /// Writes into `sink` as libxml2 flushes; `finish` returns "" and `sinkError` says whether
    /// the sink refused bytes.
    init(_ kind: Kind, to sink: any ReportSink) throws(XMLWriterError) {
        try Self.load()
        let context = SinkContext(sink)
        // The context outlives the output buffer: this object owns both, and frees the writer
        // (which closes the buffer) in deinit before the context goes.
        guard
            let output = xmlOutputBufferCreateIO(
                { context, bytes, count in
                    guard let context, let bytes else { return -1 }
                    let box = Unmanaged<SinkContext>.fromOpaque(context).takeUnretainedValue()
                    guard box.error == nil else { return -1 }
                    do {
                        try box.sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
                    } catch {
                        box.error = error
                        return -1
                    }
                    return count
                }, nil, Unmanaged.passUnretained(context).toOpaque(), nil)
        else { throw XMLWriterError(function: "xmlOutputBufferCreateIO") }
        guard let writer = xmlNewTextWriter(output) else { throw XMLWriterError(function: "xmlNewTextWriter") }
        self.buffer = nil
        self.writer = writer
        self.kind = kind
        self.sink = context
        try start()
    }

    private static func load() throws(XMLWriterError) {
        if let failure = hls_load_libxml2() {
            throw XMLWriterError(function: "dlopen", unavailable: String(cString: failure))
        }
        xmlInitParser()
    }

    private func start() throws(XMLWriterError) {
        switch kind {
        case .xml:
            try check(xmlTextWriterSetIndent(writer, 1), "xmlTextWriterSetIndent")
            try check(xmlTextWriterSetIndentString(writer, Self.xmlString("  ")), "xmlTextWriterSetIndentString")
            try check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil), "xmlTextWriterStartDocument")
        case .html:
            try check(xmlTextWriterStartDTD(writer, Self.xmlString("html"), nil, nil), "xmlTextWriterStartDTD")
            try check(xmlTextWriterEndDTD(writer), "xmlTextWriterEndDTD")
        }
    }

    deinit {
        if let writer { xmlFreeTextWriter(writer) }
        if let buffer { xmlBufferFree(buffer) }
    }

    /// The error the sink threw, when it refused bytes (a full disk): the reason a libxml2 call
    /// then failed.
    var sinkError: (any Error)? { sink?.error }

    func startElement(_ name: String) throws(XMLWriterError) {
        try check(xmlTextWriterStartElement(writer, Self.xmlString(name)), "xmlTextWriterStartElement")
    }

    func attribute(_ name: String, _ value: String) throws(XMLWriterError) {
        try check(
            xmlTextWriterWriteAttribute(writer, Self.xmlString(name), Self.xmlString(readable(value))),
            "xmlTextWriterWriteAttribute")
    }

    func text(_ content: String) throws(XMLWriterError) {
        try check(xmlTextWriterWriteString(writer, Self.xmlString(readable(content))), "xmlTextWriterWriteString")
    }

    /// A page is read, not parsed back: as in the text report, a control character or a
    /// bidirectional override from a playlist (which could make a file name read in another
    /// order than it is) is shown as an escape (`\x1b`, `\u{202e}`). XML keeps its characters.
    ///
    /// Every string is also passed through `CredentialRedaction` here, where it is still whole:
    /// a streamed page reaches its file in pieces that may cut a URL in two.
    private func readable(_ string: String) -> String {
        let redacted = CredentialRedaction.redact(string)
        return kind == .html ? TerminalText.escaped(redacted, keepingLineBreaks: true) : redacted
    }

    /// Closes the current element; an element without content is written as `<name/>`.
    func endElement() throws(XMLWriterError) {
        try check(xmlTextWriterEndElement(writer), "xmlTextWriterEndElement")
    }

    /// Closes the current element with an end tag even when it is empty (`<div></div>`): an HTML
    /// parser reads `<div/>` as an opening tag. Only HTML's void elements (`meta`, `img`, `br`)
    /// may end with `endElement`.
    func fullEndElement() throws(XMLWriterError) {
        try check(xmlTextWriterFullEndElement(writer), "xmlTextWriterFullEndElement")
    }

    /// Markup written as it is: for the report's own constant style sheet only, never for
    /// anything read from an input (a `StaticString` cannot come from one).
    func constantMarkup(_ markup: StaticString) throws(XMLWriterError) {
        let text = markup.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        try check(xmlTextWriterWriteRaw(writer, Self.xmlString(text)), "xmlTextWriterWriteRaw")
    }

    /// An element holding only text.
    func element(_ name: String, attributes: KeyValuePairs<String, String> = [:], text content: String? = nil)
        throws(XMLWriterError)
    {
        try startElement(name)
        for (key, value) in attributes { try attribute(key, value) }
        if let content { try text(content) }
        try endElement()
    }

    /// Closes every open element and the document; returns the UTF-8 text ("" when writing into a
    /// sink, which has it all once this returns).
    func finish() throws(XMLWriterError) -> String {
        try check(xmlTextWriterEndDocument(writer), "xmlTextWriterEndDocument")
        try check(xmlTextWriterFlush(writer), "xmlTextWriterFlush")
        guard let buffer else { return "" }
        guard let content = xmlBufferContent(buffer) else { throw XMLWriterError(function: "xmlBufferContent") }
        let bytes = UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer)))
        return String(decoding: bytes, as: UTF8.self)
    }

    private func check(_ result: Int32, _ function: String) throws(XMLWriterError) {
        if result < 0 { throw XMLWriterError(function: function) }
    }

    /// NUL-terminated UTF-8 for libxml2, with every character XML 1.0 forbids (§2.2 `Char`:
    /// most C0 controls, surrogates, U+FFFE/U+FFFF) replaced by U+FFFD — libxml2's writer
    /// escapes markup but passes such characters through, which would make the report unparsable.
    static func xmlString(_ string: String) -> [xmlChar] {
        var scalars = String.UnicodeScalarView()
        for scalar in string.unicodeScalars {
            scalars.append(isXMLCharacter(scalar) ? scalar : "\u{FFFD}")
        }
        return Array(String(scalars).utf8) + [0]
    }

    private static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
