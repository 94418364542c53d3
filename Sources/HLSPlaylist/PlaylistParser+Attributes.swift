// Attribute lists (rfc8216bis §4.2): each tag's attributes typed against its schema, numbers
// held to their ranges (docs/security.md, "Numbers from files"), and variables substituted
// (rfc8216bis §4.3).

private let yesNo: AttributeType = .enumeratedString(["YES", "NO"])

private let keySchema: [String: AttributeType] = [
    "METHOD": .openEnumeratedString(["NONE", "AES-128", "AES-256-GCM", "SAMPLE-AES", "SAMPLE-AES-CTR"]),
    "URI": .quotedString, "IV": .hexadecimalSequence, "KEYFORMAT": .quotedString,
    "KEYFORMATVERSIONS": .quotedString,
]

private let schemas: [String: [String: AttributeType]] = [
    "#EXT-X-STREAM-INF": [
        "BANDWIDTH": .decimalInteger, "AVERAGE-BANDWIDTH": .decimalInteger, "SCORE": .decimalFloatingPoint,
        "CODECS": .quotedString, "SUPPLEMENTAL-CODECS": .quotedString, "RESOLUTION": .decimalResolution,
        "FRAME-RATE": .decimalFloatingPoint, "HDCP-LEVEL": .openEnumeratedString(["TYPE-0", "TYPE-1", "NONE"]),
        "ALLOWED-CPC": .quotedString, "VIDEO-RANGE": .openEnumeratedString(["SDR", "HLG", "PQ"]),
        "REQ-VIDEO-LAYOUT": .quotedString, "STABLE-VARIANT-ID": .quotedString, "AUDIO": .quotedString,
        "VIDEO": .quotedString, "SUBTITLES": .quotedString, "CLOSED-CAPTIONS": .quotedStringOrNone,
        "PATHWAY-ID": .quotedString, "PROGRAM-ID": .decimalInteger,
    ],
    "#EXT-X-I-FRAME-STREAM-INF": [
        "URI": .quotedString, "BANDWIDTH": .decimalInteger, "AVERAGE-BANDWIDTH": .decimalInteger,
        "SCORE": .decimalFloatingPoint, "CODECS": .quotedString, "SUPPLEMENTAL-CODECS": .quotedString,
        "RESOLUTION": .decimalResolution, "HDCP-LEVEL": .openEnumeratedString(["TYPE-0", "TYPE-1", "NONE"]),
        "ALLOWED-CPC": .quotedString, "VIDEO-RANGE": .openEnumeratedString(["SDR", "HLG", "PQ"]),
        "REQ-VIDEO-LAYOUT": .quotedString, "STABLE-VARIANT-ID": .quotedString, "VIDEO": .quotedString,
        "PATHWAY-ID": .quotedString, "PROGRAM-ID": .decimalInteger,
    ],
    "#EXT-X-MEDIA": [
        "TYPE": .enumeratedString(MediaType.allCases.map(\.rawValue)), "URI": .quotedString,
        "GROUP-ID": .quotedString, "LANGUAGE": .quotedString, "ASSOC-LANGUAGE": .quotedString,
        "NAME": .quotedString, "STABLE-RENDITION-ID": .quotedString, "DEFAULT": yesNo, "AUTOSELECT": yesNo,
        "FORCED": yesNo, "INSTREAM-ID": .quotedString, "BIT-DEPTH": .decimalInteger,
        "SAMPLE-RATE": .decimalInteger, "CHARACTERISTICS": .quotedString, "CHANNELS": .quotedString,
    ],
    "#EXT-X-SESSION-DATA": [
        "DATA-ID": .quotedString, "VALUE": .quotedString, "URI": .quotedString,
        "FORMAT": .openEnumeratedString(["JSON", "RAW"]), "LANGUAGE": .quotedString,
    ],
    "#EXT-X-SESSION-KEY": keySchema,
    "#EXT-X-KEY": keySchema,
    "#EXT-X-CONTENT-STEERING": ["SERVER-URI": .quotedString, "PATHWAY-ID": .quotedString],
    "#EXT-X-START": ["TIME-OFFSET": .signedDecimalFloatingPoint, "PRECISE": yesNo],
    "#EXT-X-DEFINE": [
        "NAME": .quotedString, "VALUE": .quotedString, "IMPORT": .quotedString, "QUERYPARAM": .quotedString,
    ],
    "#EXT-X-MAP": ["URI": .quotedString, "BYTERANGE": .quotedString],
    "#EXT-X-DATERANGE": [
        "ID": .quotedString, "CLASS": .quotedString, "START-DATE": .quotedString, "CUE": .quotedString,
        "END-DATE": .quotedString, "DURATION": .decimalFloatingPoint, "PLANNED-DURATION": .decimalFloatingPoint,
        "SCTE35-CMD": .hexadecimalSequence, "SCTE35-OUT": .hexadecimalSequence, "SCTE35-IN": .hexadecimalSequence,
        "END-ON-NEXT": .enumeratedString(["YES"]),
    ],
    "#EXT-X-PART": [
        "URI": .quotedString, "DURATION": .decimalFloatingPoint, "INDEPENDENT": yesNo,
        "BYTERANGE": .quotedString, "GAP": yesNo,
    ],
    "#EXT-X-PART-INF": ["PART-TARGET": .decimalFloatingPoint],
    "#EXT-X-SERVER-CONTROL": [
        "CAN-SKIP-UNTIL": .decimalFloatingPoint, "CAN-SKIP-DATERANGES": yesNo, "HOLD-BACK": .decimalFloatingPoint,
        "PART-HOLD-BACK": .decimalFloatingPoint, "CAN-BLOCK-RELOAD": yesNo,
    ],
    "#EXT-X-PRELOAD-HINT": [
        "TYPE": .openEnumeratedString(["PART", "MAP"]), "URI": .quotedString,
        "BYTERANGE-START": .decimalInteger, "BYTERANGE-LENGTH": .decimalInteger,
    ],
    "#EXT-X-RENDITION-REPORT": ["URI": .quotedString, "LAST-MSN": .decimalInteger, "LAST-PART": .decimalInteger],
    "#EXT-X-SKIP": ["SKIPPED-SEGMENTS": .decimalInteger, "RECENTLY-REMOVED-DATERANGES": .quotedString],
]

extension ParserState {
    mutating func attributeList(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int)
        -> AttributeList
    {
        guard let value, !value.isEmpty else {
            sink.error("\(bare(tagName)) needs an attribute list", line: line.number, column: line.column)
            return AttributeList()
        }
        var attributes = AttributeListLexer.lex(
            value, line: line.number, column: column, tagName: bare(tagName), sink: &sink)
        let schema = schemas[tagName] ?? [:]
        for index in attributes.indices {
            let name = attributes[index].name
            guard let type = schema[name] else {
                // Unknown or client (X-…) attribute: keep the text, infer a quoted string. Clients
                // ignore it (RFC 8216 §4.2), but it is often a typo of a defined name.
                if tagName == "#EXT-X-I-FRAME-STREAM-INF", Self.notIFrameAttributes.contains(name) {
                    sink.error(
                        "EXT-X-I-FRAME-STREAM-INF must not have \(name): an I-frame stream has every EXT-X-STREAM-INF attribute but FRAME-RATE, AUDIO, SUBTITLES and CLOSED-CAPTIONS (bis-22 §4.4.6.3, RFC 8216 §4.3.4.3); remove it",
                        line: line.number, column: attributes[index].column, kind: .structure)
                } else if !schema.isEmpty, !name.hasPrefix("X-") {
                    sink.warning(
                        "\(bare(tagName)): unknown attribute \(excerpt(name)) (clients ignore it; is it misspelt?)",
                        line: line.number, column: attributes[index].column)
                }
                let raw = attributes[index].rawValue
                if tagName == "#EXT-X-DATERANGE", name.hasPrefix("X-"), !raw.isEmpty, !Self.isClientAttributeValue(raw)
                {
                    sink.error(
                        "EXT-X-DATERANGE: the value of \(excerpt(name)) is \(excerpt(raw)); a client-defined attribute holds a quoted string, a hexadecimal sequence (0x…) or a signed decimal number (bis-22 §4.4.5.1)",
                        line: line.number, column: attributes[index].column)
                }
                if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 {
                    attributes[index].value = .quotedString(
                        substitute(String(raw.dropFirst().dropLast()), line.number, attributes[index].column))
                }
                continue
            }
            attributes[index].value = typedValue(attributes[index], type, tag: bare(tagName), line: line.number)
        }
        return AttributeList(attributes)
    }

    mutating func typedValue(_ attribute: Attribute, _ type: AttributeType, tag: String, line: Int) -> AttributeValue? {
        let raw = attribute.rawValue
        let isQuoted = raw.count >= 2 && raw.hasPrefix("\"") && raw.hasSuffix("\"")
        let inner = isQuoted ? String(raw.dropFirst().dropLast()) : raw
        let column = attribute.column
        let shown = raw.hasPrefix("\"") ? excerpt(raw) : "\"\(excerpt(raw))\""
        func fail(_ expected: String) {
            sink.error("attribute \(attribute.name): expected \(expected), found \(shown)", line: line, column: column)
        }
        // A value that is well formed but quoted when it must not be (or the reverse) bends the
        // grammar without making it ambiguous: a warning, and the value is still used.
        func bend(_ expected: String) {
            sink.warning(
                "attribute \(attribute.name): expected \(expected), found \(shown)", line: line, column: column)
        }
        if raw.isEmpty { return nil }  // already reported by the lexer
        // bis-22 §4.2: a quoted-string is non-empty unless its attribute allows it, and none
        // of the attributes hlscheck knows does.
        func rejectEmpty() {
            if isQuoted, inner.isEmpty {
                sink.error(
                    "attribute \(attribute.name): the quoted string is empty (bis-22 §4.2); give it a value or leave the attribute out",
                    line: line, column: column)
            }
        }
        switch type {
        case .quotedString:
            guard isQuoted else {
                bend("a quoted string")
                return .quotedString(substitute(raw, line, column))
            }
            rejectEmpty()
            return .quotedString(substitute(inner, line, column))
        case .quotedStringOrNone:
            if raw == "NONE" { return .enumeratedString("NONE") }
            guard isQuoted else {
                bend("a quoted string or NONE")
                return .quotedString(raw)
            }
            rejectEmpty()
            return .quotedString(substitute(inner, line, column))
        case .enumeratedString(let allowed), .openEnumeratedString(let allowed):
            if isQuoted {
                bend("an enumerated string without quotes")
            } else if !AttributeValueParser.isEnumeratedString(raw) {
                fail("an enumerated string")
                return nil
            }
            if !allowed.isEmpty, !allowed.contains(inner) {
                let message =
                    "attribute \(attribute.name): expected one of \(allowed.joined(separator: ", ")), found \"\(excerpt(inner))\""
                if case .enumeratedString = type {
                    sink.error(message, line: line, column: column)
                } else {
                    sink.warning(message, line: line, column: column)
                }
            }
            return .enumeratedString(inner)
        case .decimalInteger:
            if isQuoted { bend("a decimal integer without quotes") }
            if AttributeValueParser.isDigits(inner) {
                if let v = AttributeValueParser.decimalInteger(inner) {
                    let limit = integerLimit(attribute.name)
                    guard v <= limit.maximum else {
                        outOfRange(
                            attribute, excerpt(inner), accepted: "0 to \(limit.maximum)\(limit.unit)", line: line)
                        return nil
                    }
                    return .decimalInteger(v)
                }
                sink.error(
                    "attribute \(attribute.name): \(excerpt(inner)) is too large for a decimal-integer (at most 2^64-1)",
                    line: line, column: column)
                return nil
            }
            fail("a decimal integer")
            return nil
        case .decimalFloatingPoint:
            if isQuoted { bend("a decimal number without quotes") }
            if let v = AttributeValueParser.decimalFloatingPoint(inner) {
                guard let v = acceptedFloatingPoint(v, attribute, excerpt(inner), line: line) else { return nil }
                return .decimalFloatingPoint(v)
            }
            if AttributeValueParser.isOverlongDecimal(inner) {
                outOfRange(attribute, excerpt(inner), accepted: floatingPointLimit(attribute.name).text, line: line)
                return nil
            }
            fail(inner.hasPrefix("-") ? "a non-negative decimal number" : "a decimal number")
            return nil
        case .signedDecimalFloatingPoint:
            if isQuoted { bend("a decimal number without quotes") }
            if let v = AttributeValueParser.signedDecimalFloatingPoint(inner) {
                guard let v = acceptedFloatingPoint(v, attribute, excerpt(inner), line: line) else { return nil }
                return .signedDecimalFloatingPoint(v)
            }
            if AttributeValueParser.isOverlongDecimal(inner.hasPrefix("-") ? String(inner.dropFirst()) : inner) {
                outOfRange(attribute, excerpt(inner), accepted: floatingPointLimit(attribute.name).text, line: line)
                return nil
            }
            fail("a signed decimal number")
            return nil
        case .hexadecimalSequence:
            if isQuoted { bend("a hexadecimal sequence (0x…) without quotes") }
            let text = substitute(inner, line, column)
            if let v = AttributeValueParser.hexadecimalSequence(text) { return .hexadecimalSequence(v) }
            fail("a hexadecimal sequence 0x…")
            return nil
        case .decimalResolution:
            if isQuoted { bend("WIDTHxHEIGHT without quotes") }
            if let r = AttributeValueParser.resolution(inner) {
                let side = ValueLimits.maximumResolutionSide
                guard (1...side).contains(r.width), (1...side).contains(r.height) else {
                    outOfRange(attribute, excerpt(inner), accepted: "1 to \(side) pixels on each side", line: line)
                    return nil
                }
                return .decimalResolution(r)
            }
            if AttributeValueParser.isOverlongResolution(inner) {
                outOfRange(
                    attribute, excerpt(inner),
                    accepted: "1 to \(ValueLimits.maximumResolutionSide) pixels on each side", line: line)
                return nil
            }
            fail("WIDTHxHEIGHT")
            return nil
        }
    }

    // MARK: Ranges (docs/security.md, "Numbers from files")

    /// Reports a well-formed value hlscheck does not accept; the caller then treats it as absent.
    mutating func outOfRange(_ attribute: Attribute, _ shown: String, accepted: String, line: Int) {
        sink.error(
            "attribute \(attribute.name): \(shown) is out of range (hlscheck accepts \(accepted)); the value is ignored",
            line: line, column: attribute.column)
    }

    func integerLimit(_ name: String) -> (maximum: UInt64, unit: String) {
        switch name {
        case "BANDWIDTH", "AVERAGE-BANDWIDTH": (ValueLimits.maximumBandwidth, " bit/s")
        case "SKIPPED-SEGMENTS", "LAST-MSN", "LAST-PART", "BYTERANGE-START", "BYTERANGE-LENGTH", "SAMPLE-RATE",
            "BIT-DEPTH":
            (UInt64(ValueLimits.maximumInteger), "")
        default: (UInt64.max, "")
        }
    }

    func floatingPointLimit(_ name: String) -> (range: ClosedRange<Double>, isDuration: Bool, text: String) {
        switch name {
        case "DURATION", "PART-TARGET", "HOLD-BACK", "PART-HOLD-BACK", "CAN-SKIP-UNTIL", "PLANNED-DURATION":
            (0...ValueLimits.maximumDuration, true, ValueLimits.durationRangeText)
        case "FRAME-RATE":
            (0...ValueLimits.maximumFrameRate, false, "0 to \(Int(ValueLimits.maximumFrameRate)) frames per second")
        default:
            (-ValueLimits.maximumMagnitude...ValueLimits.maximumMagnitude, false, "-1000000000 to 1000000000")
        }
    }

    /// The value when it lies in the attribute's accepted range, else nil (and a problem).
    mutating func acceptedFloatingPoint(_ value: Double, _ attribute: Attribute, _ shown: String, line: Int) -> Double?
    {
        let limit = floatingPointLimit(attribute.name)
        let accepted = limit.isDuration ? ValueLimits.isAcceptableDuration(value) : limit.range.contains(value)
        guard value.isFinite, accepted else {
            outOfRange(attribute, shown, accepted: limit.text, line: line)
            return nil
        }
        return value
    }

    // MARK: Variables (rfc8216bis §4.3)

    mutating func substitute(_ text: String, _ line: Int, _ column: Int) -> String {
        // Fast path on bytes: most values hold no "{$" at all.
        let utf8 = text.utf8
        guard let brace = utf8.firstIndex(of: UInt8(ascii: "{")),
            utf8[brace...].dropFirst().contains(UInt8(ascii: "$"))
        else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterBrace = rest[rest.index(after: open)...]
            guard afterBrace.first == "$" else {
                result += "{"
                rest = afterBrace
                continue
            }
            let afterOpen = afterBrace.dropFirst()
            guard let close = afterOpen.firstIndex(of: "}") else {
                result += rest[open...]
                rest = rest[rest.endIndex...]
                break
            }
            let name = String(afterOpen[..<close])
            if isVariableName(name) {
                if let value = variables[name] {
                    guard substitutionBudget >= value.utf8.count else {
                        if !substitutionBudgetReported {
                            substitutionBudgetReported = true
                            sink.error(
                                "variable substitution stops here: it would make the playlist more than \(ValueLimits.substitutionAllowance) bytes plus four times its size larger (EXT-X-DEFINE values that expand into each other); later references are left as written",
                                line: line, column: column, kind: .variable)
                        }
                        result += rest[open...close]
                        rest = afterOpen[afterOpen.index(after: close)...]
                        continue
                    }
                    substitutionBudget -= value.utf8.count
                    result += value
                } else {
                    sink.error(
                        "variable {$\(name)} is not defined by an EXT-X-DEFINE above this line (rfc8216bis §4.3)",
                        line: line, column: column, kind: .variable)
                    result += rest[open...close]
                }
            } else {
                result += rest[open...close]
            }
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        result += rest
        return result
    }

    func isVariableName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
    }

    mutating func handleDefine(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        requireVersion(8, "EXT-X-DEFINE (variable substitution)", line.number, line.column)
        let attrs = attributeList(tagName, value, line, column)
        let forms = ["NAME", "IMPORT", "QUERYPARAM"].filter { attrs.contains($0) }
        guard forms.count == 1, let form = forms.first, let attr = attrs[form] else {
            sink.error(
                "EXT-X-DEFINE must have exactly one of NAME, IMPORT or QUERYPARAM", line: line.number,
                column: line.column, kind: .variable)
            return
        }
        let name = attr.stringValue
        if !isVariableName(name) {
            sink.error(
                "EXT-X-DEFINE: variable name \"\(name)\" may contain only a-z, A-Z, 0-9, '-' and '_'",
                line: line.number, column: attr.column, kind: .variable)
        }
        if variables[name] != nil {
            sink.error(
                "EXT-X-DEFINE: variable \(name) is defined more than once", line: line.number, column: attr.column,
                kind: .variable)
        }
        let kind: VariableDefinition.Kind
        switch form {
        case "NAME":
            guard let v = attrs.string("VALUE") else {
                sink.error(
                    "EXT-X-DEFINE is missing the required VALUE attribute", line: line.number, column: line.column,
                    kind: .variable)
                return
            }
            variables[name] = v
            kind = .value(v)
        case "IMPORT":
            if multivariantTagCount > 0 {
                sink.error(
                    "EXT-X-DEFINE:IMPORT must not appear in a multivariant playlist", line: line.number,
                    column: attr.column, kind: .variable)
            }
            if let v = importedVariables[name] {
                variables[name] = v
            } else if importedVariables.isEmpty {
                sink.warning(
                    "EXT-X-DEFINE: IMPORT of \(name) cannot be resolved: the playlist was parsed without its multivariant playlist",
                    line: line.number, column: attr.column, kind: .variable)
                variables[name] = ""
            } else {
                sink.error(
                    "EXT-X-DEFINE: IMPORT of \(name), which the multivariant playlist does not define",
                    line: line.number, column: attr.column, kind: .variable)
                variables[name] = ""
            }
            kind = .imported
        default:
            // bis-22 §8: QUERYPARAM is protocol version 11.
            requireVersion(11, "EXT-X-DEFINE with QUERYPARAM", line.number, attr.column)
            if let v = queryParameters[name] {
                // bis-22 §4.4.2.3: the percent-decoded value must hold nothing a quoted-string
                // cannot (line feed, carriage return, double quote).
                let lowered = v.lowercased()
                if v.contains("\"") || ["%0a", "%0d", "%22"].contains(where: lowered.contains) {
                    sink.error(
                        "EXT-X-DEFINE: query parameter \(name) decodes to a line feed, carriage return or double quote, which a variable value cannot hold (bis-22 §4.4.2.3)",
                        line: line.number, column: attr.column, kind: .variable)
                }
                variables[name] = v
            } else if queryParameters.isEmpty {
                sink.warning(
                    "EXT-X-DEFINE: QUERYPARAM \(name) cannot be resolved: the playlist URI has no query parameters",
                    line: line.number, column: attr.column, kind: .variable)
                variables[name] = ""
            } else {
                sink.error(
                    "EXT-X-DEFINE: QUERYPARAM \(name) is not a query parameter of the playlist URI", line: line.number,
                    column: attr.column, kind: .variable)
                variables[name] = ""
            }
            kind = .queryParameter
        }
        let definition = VariableDefinition(line: line.number, name: name, kind: kind)
        multivariant.definitions.append(definition)
        media.definitions.append(definition)
    }
}
