// End of file: what can only be judged once every line is read (segments' sums, groups that
// variants name, required tags).

extension ParserState {
    mutating func finish() -> Playlist {
        if !sawContent {
            sink.error(
                "the playlist is empty; it must start with #EXTM3U (RFC 8216 §4.3.1.1)", line: 1, column: 0,
                kind: .structure)
        }
        let isMultivariant = multivariantTagCount > mediaTagCount
        if let m = firstMultivariantTag, let d = firstMediaTag {
            let (offending, other) = isMultivariant ? (d, m) : (m, d)
            sink.error(
                "\(bare(offending.name)) cannot appear in a \(isMultivariant ? "multivariant" : "media") playlist (it mixes \(bare(other.name)) at line \(other.line) with \(bare(offending.name)))",
                line: offending.line, column: 1, kind: .structure)
        }
        if commalessExtinfCount > 1, let index = commalessExtinfProblemIndex, sink.problems.indices.contains(index) {
            sink.problems[index].message += "; \(commalessExtinfCount - 1) more EXTINF tags lack it"
        }
        let declaredVersion = media.version ?? 1
        var requirements = versionRequirements
        if let map = firstMapUse, !isMultivariant {
            if media.iFramesOnly {
                requirements.append((5, "EXT-X-MAP in an I-frames-only playlist", map.line, map.column))
            } else {
                requirements.append((6, "EXT-X-MAP in a playlist without EXT-X-I-FRAMES-ONLY", map.line, map.column))
            }
        }
        for r in requirements where r.version > declaredVersion {
            let found = media.version.map { "it declares \($0)" } ?? "EXT-X-VERSION is absent, meaning 1"
            sink.error(
                "\(r.feature) requires EXT-X-VERSION \(r.version) or higher (\(found)) (RFC 8216 §7)",
                line: r.line, column: r.column, kind: .versionTooLow)
        }
        if declaredVersion >= 6 {
            let variantTags =
                (tags.indices(named: "#EXT-X-STREAM-INF") + tags.indices(named: "#EXT-X-I-FRAME-STREAM-INF")).sorted()
            for index in variantTags where tags.value(at: index, contains: "PROGRAM-ID=") {
                sink.warning(
                    "the PROGRAM-ID attribute was removed in protocol version 6 (RFC 8216 §7): delete it",
                    line: tags.line(at: index), column: 0, kind: .structure)
            }
        }

        let content: PlaylistContent
        if isMultivariant {
            if let pending = pendingStreamInf {
                sink.error(
                    "EXT-X-STREAM-INF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            }
            checkGroups()
            content = .multivariant(multivariant)
        } else {
            if let pending = pendingExtinf {
                sink.error("EXTINF is not followed by a URI line", line: pending.line, column: 1, kind: .structure)
            }
            if media.targetDuration == nil, !sawTargetDuration {
                sink.error(
                    "a media playlist must contain EXT-X-TARGETDURATION (RFC 8216 §4.3.3.1)", line: 1, column: 0,
                    kind: .structure)
            }
            if let partLine = firstPartLine, media.partTarget == nil {
                sink.error(
                    "EXT-X-PART requires an EXT-X-PART-INF tag in the playlist", line: partLine, column: 1,
                    kind: .structure)
            }
            media.trailingParts = pendingParts
            finishSegments()
            content = .media(media)
        }
        sink.close()
        var playlist = Playlist(uri: uri, content: content, tagStore: tags, problems: sink.problems)
        playlist.comments = comments
        playlist.variables = variables
        playlist.requiredVersion = max(1, requirements.map(\.version).max() ?? 1)
        return playlist
    }

    /// Points the segments at the final buffer of URI bytes, and gives each its media sequence
    /// number (the base plus its index) where its context's base and delta do not already.
    mutating func finishSegments() {
        let base = sequenceBase
        let text = URIText(uriBytes.withUnsafeBufferPointer { Array($0) })
        uriBytes = []
        let limit = Int(MediaSegment.sequenceMask)
        var rebased: (old: SegmentContext, new: SegmentContext)?
        for index in media.segments.indices {
            if case .text(let pending) = media.segments[index].uriSource, pending === pendingURIText {
                media.segments[index].uriSource = .text(text)
            }
            let context = media.segments[index].context
            guard context.sequenceBase != base || index > limit else { continue }
            let sequence = base.addingReportingOverflow(index)
            if index <= limit, !sequence.overflow, sequence.partialValue <= Int.max - limit {
                // Another base than when the run began (EXT-X-MEDIA-SEQUENCE after a segment):
                // one new context per run, the delta (the index) kept.
                if rebased?.old !== context { rebased = (context, context.with(sequenceBase: base)) }
                if let rebased { media.segments[index].context = rebased.new }
            } else {
                media.segments[index].mediaSequence = sequence.overflow ? Int.max : sequence.partialValue
            }
        }
    }

    /// RFC 8216 §4.3.4.2: AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS MUST name a group of
    /// EXT-X-MEDIA tags of that type; §4.3.4.1.1: names unique and one DEFAULT per group.
    mutating func checkGroups() {
        let groups = Set(
            multivariant.renditions.compactMap { r in r.type.flatMap { t in r.groupID.map { "\(t.rawValue)/\($0)" } } })
        for v in multivariant.variants {
            for (name, type) in [
                ("AUDIO", MediaType.audio), ("VIDEO", .video), ("SUBTITLES", .subtitles),
                ("CLOSED-CAPTIONS", .closedCaptions),
            ] {
                guard let attr = v.attributes[name], let group = v.attributes.string(name),
                    group != "NONE" || type != .closedCaptions
                else { continue }
                if case .enumeratedString = attr.value { continue }
                if !groups.contains("\(type.rawValue)/\(group)") {
                    sink.error(
                        "EXT-X-STREAM-INF: \(name)=\"\(group)\" names no EXT-X-MEDIA group of TYPE=\(type.rawValue)",
                        line: v.line, column: attr.column, kind: .renditionGroup)
                }
            }
        }
        var names: [String: Int] = [:]
        var defaults: Set<String> = []
        for r in multivariant.renditions {
            guard let type = r.type, let group = r.groupID else { continue }
            let key = "\(type.rawValue)/\(group)"
            if let name = r.name {
                if let first = names["\(key)/\(name)"] {
                    sink.error(
                        "EXT-X-MEDIA: NAME \"\(name)\" is used twice in group \"\(group)\" (first at line \(first))",
                        line: r.line, column: r.attributes["NAME"]?.column ?? 1, kind: .renditionGroup)
                } else {
                    names["\(key)/\(name)"] = r.line
                }
            }
            if r.isDefault {
                if defaults.contains(key) {
                    sink.error(
                        "EXT-X-MEDIA: group \"\(group)\" has more than one rendition with DEFAULT=YES",
                        line: r.line, column: r.attributes["DEFAULT"]?.column ?? 1, kind: .renditionGroup)
                }
                defaults.insert(key)
            }
        }
    }

    func looksLikeDateTime(_ text: Substring) -> Bool {
        // YYYY-MM-DD, on the first ten bytes (no copy of the value).
        var index = 0
        for u in text.utf8 {
            let ok = index == 4 || index == 7 ? u == 45 : (u >= 48 && u <= 57)
            guard ok else { return false }
            index += 1
            if index == 10 { return true }
        }
        return false
    }
}
