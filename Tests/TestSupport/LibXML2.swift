import CLibXML2
public import Foundation

/// An XML element read back from a report, as plain Swift values.
public struct ParsedElement: Sendable {
    public var name: String
    public var attributes: [String: String]
    public var children: [ParsedElement]
    /// All text inside the element, entities decoded.
    public var text: String

    public func all(_ name: String) -> [ParsedElement] { children.filter { $0.name == name } }
    public func first(_ name: String) -> ParsedElement? { children.first { $0.name == name } }

    /// Every element below this one (depth first, document order), this one included.
    public var descendants: [ParsedElement] { [self] + children.flatMap(\.descendants) }

    /// The descendants named `name` that have every class in `classes` (space-separated `class`).
    public func find(_ name: String, classes: Set<String> = []) -> [ParsedElement] {
        descendants.filter { element in
            element.name == name
                && classes.isSubset(of: Set((element.attributes["class"] ?? "").split(separator: " ").map(String.init)))
        }
    }
}

public struct XMLTestError: Error, CustomStringConvertible {
    public var description: String
}

/// libxml2's own parser and XML Schema validator, used to read the JUnit report back.
public enum LibXML2 {
    public static func parse(_ xml: String) throws -> ParsedElement {
        let document = try read(xml)
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { throw XMLTestError(description: "no root element") }
        return element(root)
    }

    /// libxml2's HTML parser (as lenient as a browser about HTML's syntax), never touching the network.
    public static func parseHTML(_ html: String) throws -> ParsedElement {
        xmlInitParser()
        let bytes = Array(html.utf8)
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                htmlReadMemory($0.baseAddress, Int32($0.count), "report.html", "UTF-8", options)
            }
        }
        guard let document else { throw XMLTestError(description: "libxml2 could not read the HTML at all") }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else { throw XMLTestError(description: "no root element") }
        return element(root)
    }

    /// The schema violations libxml2 finds; empty when the document is valid.
    public static func violations(of xml: String, against schema: URL) throws -> [String] {
        let document = try read(xml)
        defer { xmlFreeDoc(document) }
        guard let parserContext = xmlSchemaNewParserCtxt(schema.path) else {
            throw XMLTestError(description: "xmlSchemaNewParserCtxt \(schema.path)")
        }
        defer { xmlSchemaFreeParserCtxt(parserContext) }
        guard let parsedSchema = xmlSchemaParse(parserContext) else {
            throw XMLTestError(description: "xmlSchemaParse \(schema.path)")
        }
        defer { xmlSchemaFree(parsedSchema) }
        guard let validator = xmlSchemaNewValidCtxt(parsedSchema) else {
            throw XMLTestError(description: "xmlSchemaNewValidCtxt")
        }
        defer { xmlSchemaFreeValidCtxt(validator) }
        let log = ErrorLog()
        xmlSchemaSetValidStructuredErrors(
            validator,
            { context, error in
                guard let context, let error else { return }
                let log = Unmanaged<ErrorLog>.fromOpaque(context).takeUnretainedValue()
                let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
                log.messages.append(
                    "line \(error.pointee.line): \(message.split(separator: "\n").joined(separator: " "))")
            }, Unmanaged.passUnretained(log).toOpaque())
        let result = withExtendedLifetime(log) { xmlSchemaValidateDoc(validator, document) }
        if result != 0 && log.messages.isEmpty { return ["xmlSchemaValidateDoc returned \(result)"] }
        return log.messages
    }

    private final class ErrorLog {
        var messages: [String] = []
    }

    private static func read(_ xml: String) throws -> xmlDocPtr {
        xmlInitParser()
        let bytes = Array(xml.utf8)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlReadMemory($0.baseAddress, Int32($0.count), "report.xml", "UTF-8", options)
            }
        }
        guard let document else { throw XMLTestError(description: "not well-formed XML:\n\(xml)") }
        return document
    }

    private static func element(_ node: xmlNodePtr) -> ParsedElement {
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            attributes[name] = string(xmlGetProp(node, current.pointee.name))
            attribute = current.pointee.next
        }
        var children: [ParsedElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(element(current)) }
            child = current.pointee.next
        }
        return ParsedElement(
            name: String(cString: node.pointee.name), attributes: attributes, children: children,
            text: string(xmlNodeGetContent(node)))
    }

    /// Takes a string libxml2 allocated, and frees it.
    private static func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        defer { hls_xml_free(pointer) }
        return String(cString: pointer)
    }
}

/// hlscheck's JUnit reports add two things to the Apache Ant schema, as Jenkins, GitLab and
/// surefire read JUnit: a `file` attribute on each `<testcase>` (the file the case links to) and a
/// `<system-out>` inside a test case (its warnings and notes). The strict schema rejects both, so
/// schema tests validate the report with exactly those taken out.
public enum JUnitExtensions {
    public static func withoutExtensions(_ xml: String) -> String {
        // libxml2 writes attribute values with `"` escaped, so a value never holds a quote; and
        // text with `<` escaped, so an output element's text holds no `<`.
        xml.replacingOccurrences(of: #"(<testcase [^>]*?) file="[^"]*""#, with: "$1", options: .regularExpression)
            .replacingOccurrences(
                of: #"<system-out>[^<]*</system-out>(\s*)</testcase>"#, with: "$1</testcase>",
                options: .regularExpression)
    }
}
