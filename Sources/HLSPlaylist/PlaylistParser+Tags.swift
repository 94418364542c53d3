// Tags: each known tag's value read, checked and stored in the playlist being built
// (rfc8216bis §4.4).

extension ParserState {
    mutating func handleTag(_ line: SourceLine) {
        let text = line.text
        let name: Substring
        let value: Substring?
        if let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) {
            name = text[..<colon]
            value = text[text.index(after: colon)...]
        } else {
            name = text
            value = nil
        }
        let tagName = String(name)
        let valueString = value.map(String.init)
        if var written = valueString {
            written.withUTF8 { bytes in tags.append(name: tagName, value: bytes, line: line.number) }
        } else {
            tags.append(name: tagName, value: nil, line: line.number)
        }
        let valueColumn = line.column + name.unicodeScalars.count + 1
        // String equality (canonical equivalence), as a name with a non-ASCII look-alike has always matched.
        let kind = TagKind(rawValue: tagName)
        if let kind { noteTraits(kind.traits, tagName, line) }
        handleTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
    }

    /// The same for an ASCII line, on its bytes: the tag name is looked up without building a
    /// string, and a known tag's name is the kind's own (static) string.
    mutating func handleTag(ascii text: UnsafeBufferPointer<UInt8>, number: Int, column: Int) {
        var colon = 0
        while colon < text.count, text[colon] != UInt8(ascii: ":") { colon += 1 }
        let found = TagKind.lookup(ascii: UnsafeBufferPointer(rebasing: text[..<colon]))
        let valueBytes = colon < text.count ? UnsafeBufferPointer(rebasing: text[(colon + 1)...]) : nil
        guard let found else {
            // Unknown and vendor tags (#EXT-X-CUE-OUT, #EXT-X-SCTE35, …) are only kept.
            tags.append(name: String(decoding: text[..<colon], as: UTF8.self), value: valueBytes, line: number)
            return
        }
        tags.append(kind: found.kind, code: found.code, value: valueBytes, line: number)
        let line = SourceLine(number: number, text: "", column: column)
        let tagName = found.kind.rawValue
        noteTraits(found.traits, tagName, line)
        // The EXTINF of nearly every segment is read on its bytes, without a string.
        if found.kind == .extinf, let valueBytes, handleCommonExtinf(valueBytes, line, column + colon + 1) { return }
        // So is the PROGRAM-DATE-TIME of most segments: a valid date-time of the common form.
        if found.kind == .programDateTime, let valueBytes, let packed = PackedDateTime.pack(valueBytes) {
            pendingPackedDateTime = packed
            pendingProgramDateTime = nil
            return
        }
        let valueString = valueBytes.map { String(decoding: $0, as: UTF8.self) }
        handleTag(
            found.kind, tagName, value: valueString.map { Substring($0) }, valueString: valueString, line,
            column + colon + 1)
    }

    /// Counts a known tag towards the playlist's kind and reports a repeated singleton.
    mutating func noteTraits(_ traits: TagKind.Traits, _ tagName: String, _ line: SourceLine) {
        if traits.isMultivariant {
            multivariantTagCount += 1
            if firstMultivariantTag == nil { firstMultivariantTag = (tagName, line.number) }
        } else if traits.isMedia {
            mediaTagCount += 1
            if firstMediaTag == nil { firstMediaTag = (tagName, line.number) }
        }
        if traits.isSingleton {
            if let first = singletonLines[tagName] {
                sink.error(
                    "\(bare(tagName)) must not appear more than once (first at line \(first))",
                    line: line.number, column: line.column, kind: .structure)
            } else {
                singletonLines[tagName] = line.number
            }
        }
    }

    /// One tag, by kind (nil: an unknown or vendor tag), its traits already noted, handled by
    /// its section of bis-22 (§4.4.1–§4.4.6). `line.text` is not used here.
    mutating func handleTag(
        _ kind: TagKind?, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {
        // Unknown and vendor tags (#EXT-X-CUE-OUT, #EXT-X-SCTE35, …) are kept in `tags`.
        guard let kind else { return }
        switch kind.section {
        case .basic: handleBasicTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
        case .mediaPlaylist:
            handleMediaPlaylistTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
        case .mediaSegment:
            handleMediaSegmentTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
        case .mediaMetadata:
            handleMediaMetadataTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
        case .multivariant:
            handleMultivariantTag(kind, tagName, value: value, valueString: valueString, line, valueColumn)
        }
    }

    /// Basic tags and those a multivariant or a media playlist may hold (bis-22 §4.4.1, §4.4.2).
    mutating func handleBasicTag(
        _ kind: TagKind, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {
        switch kind {
        case .extm3u:
            if sawHeader {
                sink.error("#EXTM3U appears more than once", line: line.number, column: line.column, kind: .structure)
            } else {
                sink.error(
                    "#EXTM3U must be the first line (RFC 8216 §4.3.1.1)", line: line.number, column: line.column,
                    kind: .structure)
            }
            sawHeader = true
        case .version:
            guard let v = requiredInteger(tagName, value, line, valueColumn) else { return }
            if multivariant.version == nil {
                multivariant.version = v
                multivariant.versionLine = line.number
                media.version = v
                media.versionLine = line.number
            }
        case .independentSegments:
            noValue(tagName, value, line, valueColumn)
            multivariant.independentSegments = true
            media.independentSegments = true
        case .start:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["TIME-OFFSET"], in: attrs, tag: tagName, line: line)
            let start = StartPoint(
                line: line.number, timeOffset: attrs.decimalFloatingPoint("TIME-OFFSET"),
                precise: attrs.string("PRECISE") == "YES")
            if multivariant.start == nil { multivariant.start = start; media.start = start }
        case .define:
            handleDefine(tagName, value, line, valueColumn)

        default:
            preconditionFailure("\(kind.rawValue) is handled in another section")
        }
    }

    /// Tags that describe the whole media playlist (bis-22 §4.4.3).
    mutating func handleMediaPlaylistTag(
        _ kind: TagKind, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {
        switch kind {
        case .targetduration:
            sawTargetDuration = true
            if let v = requiredInteger(
                tagName, value, line, valueColumn, maximum: ValueLimits.maximumTargetDuration, unit: " seconds")
            {
                if v == 0 {
                    sink.error(
                        "EXT-X-TARGETDURATION:0: the target duration is at least 1 (bis-22 §4.4.3.1); give the longest EXTINF rounded to the nearest integer",
                        line: line.number, column: valueColumn)
                }
                media.targetDuration = v
                media.targetDurationLine = line.number
            }
        case .mediaSequence:
            if !media.segments.isEmpty {
                sink.error(
                    "EXT-X-MEDIA-SEQUENCE must appear before the first media segment", line: line.number,
                    column: line.column, kind: .structure)
            }
            if let v = requiredInteger(tagName, value, line, valueColumn, maximum: ValueLimits.maximumInteger) {
                media.mediaSequence = v
            }
            media.mediaSequenceLine = media.mediaSequenceLine ?? line.number
        case .discontinuitySequence:
            if !media.segments.isEmpty || sawDiscontinuity {
                sink.error(
                    "EXT-X-DISCONTINUITY-SEQUENCE must appear before the first media segment and any EXT-X-DISCONTINUITY",
                    line: line.number, column: line.column, kind: .structure)
            }
            if let v = requiredInteger(tagName, value, line, valueColumn, maximum: ValueLimits.maximumInteger) {
                media.discontinuitySequence = v
            }
            media.discontinuitySequenceLine = media.discontinuitySequenceLine ?? line.number
        case .endlist:
            noValue(tagName, value, line, valueColumn)
            media.endList = true
        case .playlistType:
            let text = value.map { String($0).trimmingSpaces } ?? ""
            if let type = PlaylistType(rawValue: text) {
                media.playlistType = type
            } else {
                sink.error(
                    "EXT-X-PLAYLIST-TYPE: expected EVENT or VOD, found \"\(excerpt(text))\"", line: line.number,
                    column: value == nil ? line.column : valueColumn)
            }
        case .iFramesOnly:
            noValue(tagName, value, line, valueColumn)
            requireVersion(4, "EXT-X-I-FRAMES-ONLY", line.number, line.column)
            media.iFramesOnly = true

        case .partInf:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["PART-TARGET"], in: attrs, tag: tagName, line: line)
            media.partTarget = attrs.decimalFloatingPoint("PART-TARGET")
        case .serverControl:
            media.serverControl = attributeList(tagName, value, line, valueColumn)
        default:
            preconditionFailure("\(kind.rawValue) is handled in another section")
        }
    }

    /// Tags that apply to the segment that follows, or to every segment after them (bis-22 §4.4.4).
    mutating func handleMediaSegmentTag(
        _ kind: TagKind, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {
        switch kind {
        case .extinf:
            handleExtinf(value, line, valueColumn)
        case .byterange:
            requireVersion(4, "EXT-X-BYTERANGE", line.number, line.column)
            guard let value, !value.isEmpty else {
                sink.error("EXT-X-BYTERANGE needs a value <length>[@<offset>]", line: line.number, column: line.column)
                pendingUnreadableByteRange = line.number
                return
            }
            if let range = parseByteRange(value, tag: tagName, line: line.number, column: valueColumn) {
                pendingByteRange = (range.length, range.offset, line.number, valueColumn)
            } else {
                pendingUnreadableByteRange = line.number
            }
        case .discontinuity:
            noValue(tagName, value, line, valueColumn)
            pendingDiscontinuity = true
            sawDiscontinuity = true
        case .key:
            let attrs = attributeList(tagName, value, line, valueColumn)
            let key = encryptionKey(tagName, attrs, line)
            currentKey = (key?.isEncrypting ?? false) ? key : nil
        case .map:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["URI"], in: attrs, tag: tagName, line: line)
            if firstMapUse == nil { firstMapUse = (line.number, line.column) }
            var range: ByteRange?
            if let attr = attrs["BYTERANGE"],
                let parsed = parseByteRange(
                    Substring(attr.stringValue), tag: tagName + " BYTERANGE", line: line.number, column: attr.column)
            {
                range = ByteRange(length: parsed.length, offset: parsed.offset ?? 0)
            }
            currentMap = MediaInitializationSection(line: line.number, uri: attrs.string("URI") ?? "", byteRange: range)
            // bis-22 §4.4.4.5: an AES-128 key that applies to a Media Initialization Section
            // needs an IV: the section has no media sequence number to stand in for one.
            if let key = currentKey, key.method == "AES-128", key.iv == nil {
                sink.error(
                    "EXT-X-MAP is encrypted by the AES-128 EXT-X-KEY on line \(key.line), which has no IV: add an IV attribute to that key (bis-22 §4.4.4.5)",
                    line: line.number, column: line.column, kind: .structure)
            }
        case .programDateTime:
            guard let value, !value.isEmpty else {
                sink.error("EXT-X-PROGRAM-DATE-TIME needs a date-time value", line: line.number, column: line.column)
                return
            }
            if !looksLikeDateTime(value) {
                sink.warning(
                    "EXT-X-PROGRAM-DATE-TIME: expected an ISO 8601 date-time, found \"\(excerpt(value))\"",
                    line: line.number, column: valueColumn)
            }
            pendingProgramDateTime = valueString ?? String(value)
            pendingPackedDateTime = 0
        case .gap:
            noValue(tagName, value, line, valueColumn)
            pendingGap = true
        case .bitrate:
            currentBitrate = requiredInteger(
                tagName, value, line, valueColumn, maximum: ValueLimits.maximumBitrateTag, unit: " kbit/s")
        case .part:
            handlePart(tagName, value, line, valueColumn)
        default:
            preconditionFailure("\(kind.rawValue) is handled in another section")
        }
    }

    /// Media metadata tags: date ranges, skipped segments, hints and reports (bis-22 §4.4.5).
    mutating func handleMediaMetadataTag(
        _ kind: TagKind, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {
        switch kind {
        case .daterange:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["ID"], in: attrs, tag: tagName, line: line)
            let id = attrs.string("ID")
            if !attrs.contains("START-DATE"), !(id.map(dateRangeIDs.contains) ?? false) {
                sink.warning(
                    "EXT-X-DATERANGE has no START-DATE attribute", line: line.number, column: line.column,
                    kind: .structure)
            }
            if let id { dateRangeIDs.insert(id) }
            if attrs.contains("END-ON-NEXT"), !attrs.contains("CLASS") {
                sink.error(
                    "EXT-X-DATERANGE with END-ON-NEXT must have a CLASS attribute", line: line.number,
                    column: attrs["END-ON-NEXT"]?.column ?? line.column, kind: .structure)
            }
            media.dateRanges.append(DateRange(line: line.number, id: attrs.string("ID"), attributes: attrs))
        case .skip:
            requireVersion(9, "EXT-X-SKIP", line.number, line.column)
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["SKIPPED-SEGMENTS"], in: attrs, tag: tagName, line: line)
            if let attr = attrs["RECENTLY-REMOVED-DATERANGES"] {
                // bis-22 §8: skipping date ranges (a v2 delta update) is protocol version 10.
                requireVersion(10, "EXT-X-SKIP with RECENTLY-REMOVED-DATERANGES", line.number, attr.column)
            }
            media.skippedSegments = attrs.decimalInteger("SKIPPED-SEGMENTS").flatMap { Int(exactly: $0) }

        case .preloadHint:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["TYPE", "URI"], in: attrs, tag: tagName, line: line)
            media.preloadHints.append(attrs)
        case .renditionReport:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["URI"], in: attrs, tag: tagName, line: line)
            media.renditionReports.append(attrs)
        default:
            preconditionFailure("\(kind.rawValue) is handled in another section")
        }
    }

    /// Multivariant playlist tags (bis-22 §4.4.6).
    mutating func handleMultivariantTag(
        _ kind: TagKind, _ tagName: String, value: Substring?, valueString: String?, _ line: SourceLine,
        _ valueColumn: Int
    ) {
        switch kind {
        case .streamInf:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["BANDWIDTH"], in: attrs, tag: tagName, line: line)
            if let pending = pendingStreamInf {
                sink.error(
                    "EXT-X-STREAM-INF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            }
            pendingStreamInf = (line.number, attrs)
        case .iFrameStreamInf:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["URI", "BANDWIDTH"], in: attrs, tag: tagName, line: line)
            var variant = IFrameVariantStream(uri: attrs.string("URI") ?? "", line: line.number, attributes: attrs)
            variant.bandwidth = int(attrs, "BANDWIDTH")
            variant.averageBandwidth = int(attrs, "AVERAGE-BANDWIDTH")
            variant.codecs = attrs.string("CODECS").map(splitCodecs)
            variant.resolution = attrs.resolution("RESOLUTION")
            variant.videoGroup = attrs.string("VIDEO")
            checkVariantValues(attrs, tag: "EXT-X-I-FRAME-STREAM-INF", line: line.number)
            multivariant.iFrameVariants.append(variant)
        case .media:
            handleMedia(tagName, value, line, valueColumn)
        case .sessionData:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["DATA-ID"], in: attrs, tag: tagName, line: line)
            if attrs.contains("VALUE") == attrs.contains("URI") {
                sink.error(
                    "EXT-X-SESSION-DATA must have either a VALUE or a URI attribute, not both or neither",
                    line: line.number, column: line.column, kind: .structure)
            }
            var data = SessionData(line: line.number)
            data.dataID = attrs.string("DATA-ID")
            data.value = attrs.string("VALUE")
            data.uri = attrs.string("URI")
            data.language = attrs.string("LANGUAGE")
            data.format = attrs.string("FORMAT")
            multivariant.sessionData.append(data)
        case .sessionKey:
            let attrs = attributeList(tagName, value, line, valueColumn)
            if let key = encryptionKey(tagName, attrs, line) {
                if !key.isEncrypting {
                    sink.error(
                        "EXT-X-SESSION-KEY must not have METHOD=NONE", line: line.number,
                        column: attrs["METHOD"]?.column ?? line.column, kind: .structure)
                }
                multivariant.sessionKeys.append(key)
            }
        case .contentSteering:
            let attrs = attributeList(tagName, value, line, valueColumn)
            require(["SERVER-URI"], in: attrs, tag: tagName, line: line)
            var steering = ContentSteering(line: line.number)
            steering.serverURI = attrs.string("SERVER-URI")
            steering.pathwayID = attrs.string("PATHWAY-ID")
            multivariant.contentSteering = steering
        default:
            preconditionFailure("\(kind.rawValue) is handled in another section")
        }
    }

    mutating func noValue(_ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int) {
        if let value, !value.isEmpty {
            sink.warning(
                "\(bare(tagName)) takes no value, found \"\(excerpt(value))\"", line: line.number, column: column)
        }
    }

    mutating func requiredInteger(
        _ tagName: String, _ value: Substring?, _ line: SourceLine, _ column: Int, maximum: Int = .max,
        unit: String = ""
    ) -> Int? {
        guard let value, !value.trimmingSpaces.isEmpty else {
            sink.error("\(bare(tagName)) needs a decimal-integer value", line: line.number, column: line.column)
            return nil
        }
        let text = value.trimmingSpaces
        if AttributeValueParser.isDigits(text) {
            if let v = AttributeValueParser.decimalInteger(text), let i = Int(exactly: v), i <= maximum { return i }
            if maximum < .max {
                sink.error(
                    "\(bare(tagName)): \(excerpt(text)) is out of range (hlscheck accepts 0 to \(maximum)\(unit)); the value is ignored",
                    line: line.number, column: column)
            } else {
                sink.error("\(bare(tagName)): \(excerpt(text)) is too large", line: line.number, column: column)
            }
            return nil
        }
        sink.error(
            "\(bare(tagName)): expected a decimal integer, found \"\(excerpt(text))\"", line: line.number,
            column: column)
        return nil
    }

    /// bis-22 §4.4.5.1: the value of an X- attribute of EXT-X-DATERANGE is a quoted-string, a
    /// hexadecimal-sequence or a decimal-floating-point (signed or not).
    static func isClientAttributeValue(_ raw: String) -> Bool {
        if raw.count >= 2, raw.hasPrefix("\""), raw.hasSuffix("\"") { return true }
        if raw.hasPrefix("0x") || raw.hasPrefix("0X") { return AttributeValueParser.hexadecimalSequence(raw) != nil }
        let unsigned = raw.hasPrefix("-") ? raw.dropFirst() : Substring(raw)
        return !unsigned.isEmpty && AttributeValueParser.isDecimalFloatingPointSyntax(unsigned)
    }

    /// The EXT-X-STREAM-INF attributes an I-frame stream does not have: it plays no audio, no
    /// subtitles and no captions, and its frame rate is that of its I-frames.
    static let notIFrameAttributes: Set<String> = ["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"]

    mutating func require(_ names: [String], in attrs: AttributeList, tag: String, line: SourceLine) {
        for name in names where !attrs.contains(name) {
            sink.error(
                "\(bare(tag)) is missing the required \(name) attribute", line: line.number, column: line.column,
                kind: .structure)
        }
    }

    mutating func requireVersion(_ version: Int, _ feature: String, _ line: Int, _ column: Int) {
        guard !versionFeaturesSeen.contains(feature) else { return }
        versionFeaturesSeen.insert(feature)
        versionRequirements.append((version, feature, line, column))
    }

    func int(_ attrs: AttributeList, _ name: String) -> Int? {
        attrs.decimalInteger(name).flatMap { Int(exactly: $0) }
    }

    func splitCodecs(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
    }
}
