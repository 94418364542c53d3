internal import CLibYAML

/// One node of a YAML document (YAML 1.1 as libyaml reads it, so JSON too): what
/// `.hlscheck.yml` is read into. libyaml parses; this composes its events into a tree, with
/// aliases resolved, and reads scalars as YAML 1.1's types do (the YAML 1.1 type repository,
/// yaml.org/type: bool, int, float), as Yams read them before.
struct YAMLNode: Sendable, Hashable {
    enum Content: Sendable, Hashable {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping([Pair])
    }

    struct Pair: Sendable, Hashable {
        var key: YAMLNode
        var value: YAMLNode
    }

    var content: Content
    /// Where the node starts, 1-based.
    var line: Int
    var column: Int

    var string: String? {
        if case .scalar(let text) = content { return text }
        return nil
    }

    var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    var mapping: [(YAMLNode, YAMLNode)]? {
        if case .mapping(let pairs) = content { return pairs.map { ($0.key, $0.value) } }
        return nil
    }

    /// A whole number: decimal with an optional sign, or 0x/0o/0b, `_` allowed between digits.
    var int: Int? {
        guard var text = string?.filter({ $0 != "_" }), !text.isEmpty else { return nil }
        var sign = 1
        if let first = text.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            text.removeFirst()
        }
        let radix: Int
        switch text.prefix(2) {
        case "0x": radix = 16
        case "0o": radix = 8
        case "0b": radix = 2
        default: radix = 10
        }
        if radix != 10 { text.removeFirst(2) }
        guard !text.isEmpty, let magnitude = Int(text, radix: radix) else { return nil }
        return sign * magnitude
    }

    /// A number, whole or not; `.inf`, `-.inf` and `.nan` as YAML spells them.
    var float: Double? {
        guard let text = string?.filter({ $0 != "_" }), !text.isEmpty else { return nil }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            // Swift's Double(_:) also reads "inf", "nan" and hexadecimal floats, which YAML does not.
            guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }) else { return nil }
            return Double(text)
        }
    }

    /// YAML 1.1's booleans: true/yes/on and false/no/off, in lower, capitalised or upper case.
    var bool: Bool? {
        switch string {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N": return false
        default: return nil
        }
    }
}

/// Why a YAML document could not be read: libyaml's problem, or the composer's, with its place.
struct YAMLError: Error, CustomStringConvertible {
    var line: Int
    var column: Int
    var problem: String

    var description: String { "line \(line), column \(column): \(problem)" }
}

extension YAMLNode {
    /// The document in `bytes`; nil when it holds none (empty, or comments only). Throws a
    /// `YAMLError` for text that is not YAML, an alias to an unknown anchor, or a second document.
    static func parse(_ bytes: [UInt8]) throws(YAMLError) -> YAMLNode? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw YAMLError(line: 1, column: 1, problem: "the YAML parser could not start (out of memory)")
        }
        defer { yaml_parser_delete(parser) }
        // libyaml reads the input in place: the buffer outlives the parse.
        let result: Result<YAMLNode?, YAMLError> = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            var composer = YAMLComposer(parser: parser)
            return Result { () throws(YAMLError) in try composer.document() }
        }
        return try result.get()
    }
}

/// Builds nodes from libyaml's events, one event at a time (YAML 1.1 §3.1.2, "Load": parse, then
/// compose). Anchors map to the node they name, so an alias is that node again.
private struct YAMLComposer {
    /// What this composer needs of one event; its strings are copied before the event is freed.
    struct Event {
        var type: yaml_event_type_t
        var line: Int
        var column: Int
        var anchor: String?
        var value: String
    }

    let parser: UnsafeMutablePointer<yaml_parser_t>
    var anchors: [String: YAMLNode] = [:]
    /// Collections open around the current event: composing recurses once per level, so a
    /// file of a million "[" would exhaust the stack without a bound.
    var depth = 0
    static let maximumDepth = 64

    mutating func next() throws(YAMLError) -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            let mark = parser.pointee.problem_mark
            let problem = parser.pointee.problem.map { String(cString: $0) } ?? "not valid YAML"
            let context = parser.pointee.context.map { String(cString: $0) + ": " } ?? ""
            throw YAMLError(line: mark.line + 1, column: mark.column + 1, problem: context + problem)
        }
        defer { yaml_event_delete(&event) }
        func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }
        var result = Event(
            type: event.type, line: event.start_mark.line + 1, column: event.start_mark.column + 1, anchor: nil,
            value: "")
        switch event.type {
        case YAML_SCALAR_EVENT:
            result.anchor = text(event.data.scalar.anchor)
            // The length, not the first NUL: a quoted scalar may hold "\0".
            if let value = event.data.scalar.value {
                result.value = String(
                    decoding: UnsafeBufferPointer(start: value, count: event.data.scalar.length), as: UTF8.self)
            }
        case YAML_ALIAS_EVENT:
            result.anchor = text(event.data.alias.anchor)
        case YAML_SEQUENCE_START_EVENT:
            result.anchor = text(event.data.sequence_start.anchor)
        case YAML_MAPPING_START_EVENT:
            result.anchor = text(event.data.mapping_start.anchor)
        default:
            break
        }
        return result
    }

    /// The stream's one document, nil for an empty stream.
    mutating func document() throws(YAMLError) -> YAMLNode? {
        var root: YAMLNode?
        while true {
            let event = try next()
            switch event.type {
            case YAML_STREAM_START_EVENT, YAML_DOCUMENT_END_EVENT:
                continue
            case YAML_DOCUMENT_START_EVENT:
                if root != nil {
                    throw YAMLError(
                        line: event.line, column: event.column, problem: "a second document; the file must hold one")
                }
                root = try node(try next())
            case YAML_STREAM_END_EVENT, YAML_NO_EVENT:
                return root
            default:
                throw YAMLError(line: event.line, column: event.column, problem: "unexpected YAML event")
            }
        }
    }

    mutating func node(_ event: Event) throws(YAMLError) -> YAMLNode {
        if event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT {
            guard depth < Self.maximumDepth else {
                throw YAMLError(
                    line: event.line, column: event.column, problem: "nested more than \(Self.maximumDepth) levels deep"
                )
            }
            depth += 1
        }
        defer {
            if event.type == YAML_SEQUENCE_START_EVENT || event.type == YAML_MAPPING_START_EVENT { depth -= 1 }
        }
        let made: YAMLNode
        switch event.type {
        case YAML_SCALAR_EVENT:
            made = YAMLNode(content: .scalar(event.value), line: event.line, column: event.column)
        case YAML_ALIAS_EVENT:
            guard let anchor = event.anchor, let target = anchors[anchor] else {
                throw YAMLError(
                    line: event.line, column: event.column,
                    problem: "alias *\(event.anchor ?? "") names no anchor before it")
            }
            return target
        case YAML_SEQUENCE_START_EVENT:
            var items: [YAMLNode] = []
            while true {
                let item = try next()
                if item.type == YAML_SEQUENCE_END_EVENT { break }
                items.append(try node(item))
            }
            made = YAMLNode(content: .sequence(items), line: event.line, column: event.column)
        case YAML_MAPPING_START_EVENT:
            var pairs: [YAMLNode.Pair] = []
            while true {
                let key = try next()
                if key.type == YAML_MAPPING_END_EVENT { break }
                let keyNode = try node(key)
                pairs.append(YAMLNode.Pair(key: keyNode, value: try node(try next())))
            }
            made = YAMLNode(content: .mapping(pairs), line: event.line, column: event.column)
        default:
            throw YAMLError(line: event.line, column: event.column, problem: "unexpected YAML event")
        }
        if let anchor = event.anchor { anchors[anchor] = made }
        return made
    }
}
