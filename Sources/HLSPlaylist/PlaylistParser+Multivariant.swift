// The multivariant playlist: variant streams and renditions (rfc8216bis §4.4.6).

extension ParserState {
    mutating func makeVariant(uri: String, line: Int, uriLine: Int, attributes attrs: AttributeList) -> VariantStream {
        var v = VariantStream(uri: uri, line: line, uriLine: uriLine, attributes: attrs)
        v.bandwidth = int(attrs, "BANDWIDTH")
        v.averageBandwidth = int(attrs, "AVERAGE-BANDWIDTH")
        v.codecs = attrs.string("CODECS").map(splitCodecs)
        v.resolution = attrs.resolution("RESOLUTION")
        v.frameRate = attrs.decimalFloatingPoint("FRAME-RATE")
        v.hdcpLevel = attrs.string("HDCP-LEVEL")
        v.videoRange = attrs.string("VIDEO-RANGE")
        v.audioGroup = attrs.string("AUDIO")
        v.videoGroup = attrs.string("VIDEO")
        v.subtitlesGroup = attrs.string("SUBTITLES")
        if case .enumeratedString("NONE")? = attrs["CLOSED-CAPTIONS"]?.value {
            v.closedCaptionsNone = true
        } else {
            v.closedCaptionsGroup = attrs.string("CLOSED-CAPTIONS")
        }
        v.pathwayID = attrs.string("PATHWAY-ID")
        v.stableVariantID = attrs.string("STABLE-VARIANT-ID")
        checkVariantValues(attrs, tag: "EXT-X-STREAM-INF", line: line)
        return v
    }

    /// bis-22 §4.4.6.2 values of EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF that the
    /// grammar of their type alone does not catch.
    mutating func checkVariantValues(_ attrs: AttributeList, tag: String, line: Int) {
        if let attr = attrs["STABLE-VARIANT-ID"], !Self.isStableID(attr.stringValue) {
            sink.error(
                "\(tag): STABLE-VARIANT-ID \"\(excerpt(attr.stringValue))\" may contain only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_' (bis-22 §4.4.6.2)",
                line: line, column: attr.column)
        }
        for attr in attrs.attributes where attr.name.hasPrefix("REQ-") {
            // bis-22 §8: REQ- attributes are protocol version 12.
            requireVersion(12, "the \(attr.name) attribute", line, attr.column)
        }
        if let attr = attrs["REQ-VIDEO-LAYOUT"], !attr.stringValue.isEmpty,
            attr.stringValue.split(separator: ",", omittingEmptySubsequences: false).contains(where: {
                $0.trimmingSpaces.isEmpty
            })
        {
            sink.error(
                "\(tag): REQ-VIDEO-LAYOUT \"\(excerpt(attr.stringValue))\" has an empty entry (bis-22 §4.4.6.2); remove the extra comma",
                line: line, column: attr.column)
        }
        if let attr = attrs["SUPPLEMENTAL-CODECS"], !attr.stringValue.isEmpty {
            for element in attr.stringValue.split(separator: ",", omittingEmptySubsequences: false) {
                let format =
                    element.split(separator: "/", omittingEmptySubsequences: false).first.map { $0.trimmingSpaces }
                    ?? ""
                if !Self.isCodecFormat(format) {
                    sink.error(
                        "\(tag): SUPPLEMENTAL-CODECS element \"\(excerpt(String(element)))\" does not start with a codec format such as dvh1.08.07 (bis-22 §4.4.6.2)",
                        line: line, column: attr.column)
                }
            }
        }
    }

    /// bis-22 §4.4.6.1, §4.4.6.2: STABLE-RENDITION-ID and STABLE-VARIANT-ID use only
    /// a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_'.
    static func isStableID(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2B, 0x2F, 0x3D, 0x2E, 0x2D, 0x5F].contains(byte)
            }
    }

    /// An RFC 6381 codec format as CODECS lists it: a four-character sample entry (letters,
    /// digits, '-', as in ec-3) followed by dot-separated parameters (`avc1.64001f`, `dvh1.08.07`).
    static func isCodecFormat<S: StringProtocol>(_ text: S) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let entry = parts.first, entry.utf8.count == 4 else { return false }
        func isCodeCharacter(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
        }
        return entry.utf8.allSatisfy(isCodeCharacter)
            && parts.dropFirst().allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isCodeCharacter) }
    }

    /// bis-22 §4.4.6.1: a closed-caption INSTREAM-ID is CC1 to CC4 or SERVICE1 to SERVICE63.
    static func isClosedCaptionChannel(_ text: String) -> Bool {
        if text.hasPrefix("CC"), let n = Int(text.dropFirst(2)), text.count == 3 { return (1...4).contains(n) }
        if text.hasPrefix("SERVICE"), let n = Int(text.dropFirst(7)), !text.dropFirst(7).hasPrefix("0"),
            text.dropFirst(7).allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return (1...63).contains(n)
        }
        return false
    }

    mutating func handleMedia(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        let attrs = attributeList(tagName, value, line, column)
        require(["TYPE", "GROUP-ID", "NAME"], in: attrs, tag: tagName, line: line)
        var r = Rendition(line: line.number, attributes: attrs)
        r.type = attrs.string("TYPE").flatMap(MediaType.init(rawValue:))
        r.groupID = attrs.string("GROUP-ID")
        r.name = attrs.string("NAME")
        r.uri = attrs.string("URI")
        r.language = attrs.string("LANGUAGE")
        r.assocLanguage = attrs.string("ASSOC-LANGUAGE")
        r.isDefault = attrs.string("DEFAULT") == "YES"
        r.autoselect = attrs.string("AUTOSELECT") == "YES"
        r.forced = attrs.string("FORCED") == "YES"
        r.instreamID = attrs.string("INSTREAM-ID")
        r.characteristics = attrs.string("CHARACTERISTICS")
        r.channels = attrs.string("CHANNELS")
        if r.type == .closedCaptions {
            require(["INSTREAM-ID"], in: attrs, tag: tagName, line: line)
            if let uriAttr = attrs["URI"] {
                sink.error(
                    "EXT-X-MEDIA with TYPE=CLOSED-CAPTIONS must not have a URI attribute", line: line.number,
                    column: uriAttr.column, kind: .structure)
            }
            if let id = r.instreamID, id.hasPrefix("SERVICE") {
                requireVersion(7, "INSTREAM-ID SERVICEn", line.number, attrs["INSTREAM-ID"]?.column ?? line.column)
            }
        } else if let attr = attrs["INSTREAM-ID"] {
            // bis-22 §4.4.6.1: from protocol version 13 INSTREAM-ID may name the media of any
            // TYPE; RFC 8216 allowed it with CLOSED-CAPTIONS only.
            requireVersion(13, "INSTREAM-ID on a rendition other than CLOSED-CAPTIONS", line.number, attr.column)
        }
        if let attr = attrs["STABLE-RENDITION-ID"], !Self.isStableID(attr.stringValue) {
            sink.error(
                "EXT-X-MEDIA: STABLE-RENDITION-ID \"\(excerpt(attr.stringValue))\" may contain only a-z, A-Z, 0-9, '+', '/', '=', '.', '-' and '_' (bis-22 §4.4.6.1)",
                line: line.number, column: attr.column)
        }
        if r.type == .closedCaptions, let attr = attrs["INSTREAM-ID"], let id = r.instreamID, !id.isEmpty,
            !Self.isClosedCaptionChannel(id)
        {
            sink.error(
                "EXT-X-MEDIA: INSTREAM-ID \"\(excerpt(id))\" is no caption channel; closed captions are CC1 to CC4 (CEA-608) or SERVICE1 to SERVICE63 (CEA-708) (bis-22 §4.4.6.1)",
                line: line.number, column: attr.column)
        }
        if let type = r.type, type != .audio {
            for name in ["BIT-DEPTH", "SAMPLE-RATE", "CHANNELS"] {
                if let attr = attrs[name] {
                    sink.error(
                        "EXT-X-MEDIA: \(name) describes audio and is allowed only with TYPE=AUDIO, not TYPE=\(type.rawValue) (bis-22 §4.4.6.1); remove it",
                        line: line.number, column: attr.column, kind: .structure)
                }
            }
        }
        if let attr = attrs["CHANNELS"], let channels = r.channels {
            let parameters = channels.split(separator: "/", omittingEmptySubsequences: false)
            if parameters.count >= 3, parameters[1].isEmpty {
                sink.error(
                    "EXT-X-MEDIA: CHANNELS \"\(excerpt(channels))\" has a third parameter but an empty second one (bis-22 §4.4.6.1); give the spatial audio identifiers or leave the third out",
                    line: line.number, column: attr.column)
            }
        }
        if let attr = attrs["FORCED"], r.type != .subtitles {
            sink.error(
                "EXT-X-MEDIA: FORCED is allowed only with TYPE=SUBTITLES", line: line.number, column: attr.column,
                kind: .structure)
        }
        if r.type == .subtitles, r.uri == nil {
            sink.error(
                "EXT-X-MEDIA with TYPE=SUBTITLES is missing the required URI attribute", line: line.number,
                column: line.column, kind: .structure)
        }
        if r.isDefault, let attr = attrs["AUTOSELECT"], !r.autoselect {
            sink.error(
                "EXT-X-MEDIA: AUTOSELECT must be YES when DEFAULT=YES", line: line.number, column: attr.column,
                kind: .renditionGroup)
        }
        multivariant.renditions.append(r)
    }
}
