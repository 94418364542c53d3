import HLSPlaylist
import MediaFormats
import MediaInspection
import StreamSources

/// What reading the resources of one I-frame playlist showed: whether each resource starts with
/// its Media Initialization Section (bis-22 §4.4.3.6), whether each fMP4 I-frame's byte range
/// holds its movie fragment box (AS 6.10), the codecs of its I-frames (bis-22 §6.2.4), and the
/// size of the I-frames that are whole resources (bis-22 §4.4.6.3).
///
/// I-frame playlists are not measured like variants (their segments are single frames whose
/// duration is the span to the next I-frame, not their own): the checker reads only what these
/// requirements need, through the same segment source and inspector.
package struct IFramePlaylistInspection: Sendable, Hashable {
    /// A finding's place and what it says: the EXTINF line of the I-frame segment concerned.
    package struct Problem: Sendable, Hashable {
        package var line: Int
        package var message: String
    }

    /// The resolved URI of the I-frame playlist.
    package var playlistURI: String
    /// Resources without EXT-X-MAP whose bytes before their first I-frame are not a Media
    /// Initialization Section, each at its first I-frame segment.
    package var missingInitialization: [Problem] = []
    /// fMP4 I-frame segments whose byte range holds no `moof` before its media data.
    package var missingMovieFragment: [Problem] = []
    /// RFC 6381 strings of the I-frames inspected, sorted: the first I-frame of each resource
    /// and of each run after EXT-X-DISCONTINUITY (where alone a format may change, bis-22 §4.4.4.3).
    package var codecs: [String] = []
    /// Whether every I-frame chosen for its codecs was inspected: only then is a declared codec
    /// that none of them holds absent.
    package var isComplete = false
    /// The size in bytes of each resource that an I-frame segment without EXT-X-BYTERANGE is
    /// whole, keyed by resolved URI: what a player fetches for that I-frame, from which its
    /// segment bit rate comes (bis-22 §4.4.6.3). A resource that could not be read is absent.
    package var wholeResourceBytes: [String: Int] = [:]
    /// Resources of I-frame segments that could not be read, keyed by resolved URI: the segment
    /// that names each first, and why.
    package var unreadable: [String: UnreadableResource] = [:]
    /// I-frame segments whose EXT-X-BYTERANGE ends past the end of a resource that exists (at
    /// most one per resource: the range that ends last), and why. Reported even where a media
    /// playlist lists the resource too: its whole file reads, this range of it does not. Keyed
    /// by resolved URI.
    package var unreadableRanges: [String: UnreadableResource] = [:]

    /// An I-frame resource that could not be read.
    package struct UnreadableResource: Sendable, Hashable {
        /// The URI as the playlist writes it.
        package var uri: String
        package var line: Int
        package var reason: String
    }
}

extension IFramePlaylistInspection {
    /// Records that the resource `uri` of `segment` could not be read (the first segment that
    /// names it), with the reader's reason.
    mutating func noteUnreadable(_ segment: MediaSegment, at uri: String, _ error: any Error) {
        guard unreadable[uri] == nil else { return }
        unreadable[uri] = UnreadableResource(
            uri: segment.uri, line: segment.extinfLine ?? segment.uriLine,
            reason: (error as? InputReadError)?.reason ?? "\(error)")
    }
}

extension MediaMeasurer {
    /// Bytes of a resource's start read to find its Media Initialization Section: PAT and PMT
    /// take a few packets, an fMP4 `ftyp` and `moov` a few kilobytes.
    static let initializationPrefixBytes = 64 << 10

    /// Reads what `IFramePlaylistInspection` holds for the I-frame playlist `playlist`, found at
    /// `playlistURI` (`base`: where its URIs resolve).
    func inspectIFrames(_ playlist: MediaPlaylist, at playlistURI: String, base: String) async
        -> IFramePlaylistInspection
    {
        var result = IFramePlaylistInspection(playlistURI: playlistURI)
        let segments = playlist.segments.filter { !$0.gap }
        let firstIFrames = Self.firstIFrames(segments, base: base)
        let prefixes = await inspectInitializationSections(firstIFrames, base: base, into: &result)
        await measureWholeResources(segments, base: base, into: &result)
        let read = await inspectCodecs(segments, firstIFrames, prefixes: prefixes, base: base, into: &result)
        await checkRangeEnds(segments, base: base, alreadyRead: read, into: &result)
        return result
    }

    /// The first I-frame of a resource, before which its initialization section lies.
    struct FirstIFrame {
        var uri: String
        var range: ByteRange?
        var line: Int
        var segment: MediaSegment
    }

    /// The first I-frame of each resource read for its initialization section, in playlist
    /// order. bis-22 §4.4.3.6: without EXT-X-MAP, a resource starts with its initialization
    /// section, which lies before its first I-frame. Under AES-128 the resource is one CBC run
    /// from its start (bis-22 §6.2.3), whose first blocks are decrypted; SAMPLE-AES leaves the
    /// tables clear; other methods are not read.
    static func firstIFrames(_ segments: [MediaSegment], base: String) -> [FirstIFrame] {
        var index: [String: Int] = [:]
        var firsts: [FirstIFrame] = []
        for segment in segments where segment.map == nil && segment.unreadableByteRangeLine == nil {
            let method = segment.key?.method ?? "NONE"
            guard method == "NONE" || method == "AES-128" || method.hasPrefix("SAMPLE-AES") else { continue }
            let uri = URIResolver.resolve(segment.uri, against: base)
            if let known = index[uri] {
                // Without a byte range the whole resource is one I-frame segment.
                if let range = segment.byteRange, let first = firsts[known].range, range.offset < first.offset {
                    firsts[known].range = range
                    firsts[known].segment = segment
                }
                if segment.byteRange == nil { firsts[known].range = nil }
            } else {
                index[uri] = firsts.count
                firsts.append(
                    FirstIFrame(
                        uri: uri, range: segment.byteRange, line: segment.extinfLine ?? segment.uriLine,
                        segment: segment))
            }
        }
        return firsts
    }

    /// Reads the start of each resource up to its first I-frame and judges it as an
    /// initialization section; returns the starts read, served again as the I-frames'
    /// initialization sections when their codecs are read.
    private func inspectInitializationSections(
        _ firstIFrames: [FirstIFrame], base: String, into result: inout IFramePlaylistInspection
    ) async -> [String: [UInt8]] {
        let source = inspector.source
        var prefixes: [String: [UInt8]] = [:]
        for first in firstIFrames {
            let uri = first.uri
            let key = first.segment.key?.method == "AES-128" ? first.segment.key : nil
            var bytes: [UInt8]
            do {
                if let range = first.range {
                    // Up to the first I-frame; one that starts at byte 0 holds the section itself
                    // (iframe-range-includes-initialization), whose start is read instead.
                    let length = min(range.offset > 0 ? range.offset : range.length, Self.initializationPrefixBytes)
                    // Cipher text is read to the end of the block the section ends in.
                    let read = key == nil ? length : min((length + 15) / 16 * 16, range.offset + range.length)
                    bytes = try await source.read(uri, range: SegmentByteRange(offset: 0, length: read))
                    if key == nil, range.offset > 0, length == range.offset { prefixes[uri] = bytes }
                    if let key {
                        guard let clear = try await clearStart(bytes, key: key, segment: first.segment, base: base)
                        else { continue }
                        bytes = Array(clear.prefix(length))
                    }
                } else {
                    let resource = try await source.open(uri, range: nil)
                    result.wholeResourceBytes[uri] = resource.count
                    bytes = try resource.bytes(at: 0, length: min(Self.initializationPrefixBytes, resource.count))
                    if let key {
                        guard let clear = try await clearStart(bytes, key: key, segment: first.segment, base: base)
                        else { continue }
                        bytes = clear
                    }
                }
            } catch {
                // segment-unreadable reports it; the section of a resource that was not read is not judged.
                result.noteUnreadable(first.segment, at: uri, error)
                continue
            }
            let end = first.range.flatMap { $0.offset > 0 ? $0.offset : nil }
            if let reason = InitializationSectionShape.problem(inPrefix: bytes, endsAt: end) {
                let decrypted = key == nil ? "" : " (decrypted with the AES-128 key and IV of its first I-frame)"
                result.missingInitialization.append(.init(line: first.line, message: reason + decrypted))
            }
        }
        return prefixes
    }

    /// An I-frame without a byte range is its whole resource, fetched whole: the size of the
    /// resources not opened for their initialization section (under EXT-X-MAP, or another
    /// encryption) is read too.
    private func measureWholeResources(
        _ segments: [MediaSegment], base: String, into result: inout IFramePlaylistInspection
    ) async {
        for segment in segments where segment.byteRange == nil && segment.unreadableByteRangeLine == nil {
            let uri = URIResolver.resolve(segment.uri, against: base)
            guard result.wholeResourceBytes[uri] == nil, result.unreadable[uri] == nil else { continue }
            do {
                result.wholeResourceBytes[uri] = try await inspector.source.open(uri, range: nil).count
            } catch {
                result.noteUnreadable(segment, at: uri, error)
            }
        }
    }

    /// Opens, in each resource, the byte range that ends last: when it lies within the resource,
    /// every range of the resource does (bis-22 §4.4.4.2: a byte range is a sub-range of the
    /// resource). One open per resource — a local file is not read for it, a remote one is asked
    /// for that range alone — so a range past the end is found whichever I-frames are inspected.
    /// `alreadyRead`: the ranges the codecs were read from (`rangeKey`), which lie within their
    /// resource: not asked for again.
    private func checkRangeEnds(
        _ segments: [MediaSegment], base: String, alreadyRead: Set<String>,
        into result: inout IFramePlaylistInspection
    ) async {
        var lastEnding: [String: MediaSegment] = [:]
        var order: [String] = []
        for segment in segments where segment.unreadableByteRangeLine == nil {
            guard let range = segment.byteRange else { continue }
            let uri = URIResolver.resolve(segment.uri, against: base)
            guard let known = lastEnding[uri] else {
                lastEnding[uri] = segment
                order.append(uri)
                continue
            }
            // The parser bounds offsets and lengths (ValueLimits.maximumInteger): the sums fit.
            if let knownRange = known.byteRange, range.offset + range.length > knownRange.offset + knownRange.length {
                lastEnding[uri] = segment
            }
        }
        let source = inspector.source
        for uri in order where result.unreadable[uri] == nil {
            guard let segment = lastEnding[uri], let range = segment.byteRange,
                !alreadyRead.contains(Self.rangeKey(uri, SegmentByteRange(offset: range.offset, length: range.length)))
            else { continue }
            do {
                _ = try await source.open(uri, range: SegmentByteRange(offset: range.offset, length: range.length))
            } catch {
                result.unreadableRanges[uri] = IFramePlaylistInspection.UnreadableResource(
                    uri: segment.uri, line: segment.extinfLine ?? segment.uriLine,
                    reason: (error as? InputReadError)?.reason ?? "\(error)")
            }
        }
    }

    /// The codecs of the I-frames where a format may change: the first of each resource and
    /// after each discontinuity; then, for fMP4, each I-frame's movie fragment.
    /// A byte range of a resource, as a set of ranges read holds it.
    static func rangeKey(_ uri: String, _ range: SegmentByteRange) -> String {
        "\(range.offset) \(range.length) \(uri)"
    }

    /// Returns the ranges read whole (`rangeKey`).
    private func inspectCodecs(
        _ segments: [MediaSegment], _ firstIFrames: [FirstIFrame], prefixes: [String: [UInt8]], base: String,
        into result: inout IFramePlaylistInspection
    ) async -> Set<String> {
        var seen: Set<String> = []
        var chosen: [MediaSegment] = []
        for segment in segments where segment.unreadableByteRangeLine == nil {
            if seen.insert(URIResolver.resolve(segment.uri, against: base)).inserted || segment.discontinuity {
                chosen.append(segment)
            }
        }
        let sectionEnds = Dictionary(
            firstIFrames.compactMap { first in first.range.map { (first.uri, $0.offset) } },
            uniquingKeysWith: { first, _ in first })
        var requests: [SegmentRequest] = []
        for segment in chosen {
            // AES-128 over an I-frame playlist chains through the whole resource (bis-22 §6.2.3):
            // a range alone does not decrypt with the playlist's IV.
            if let method = segment.key?.method, method != "NONE" { continue }
            var request = request(segment, at: base, wantsStreamInfo: requests.isEmpty)
            if segment.map == nil, let range = segment.byteRange, range.offset > 0 {
                // The section a client assumes: from the start of the resource to the first I-frame.
                let start = sectionEnds[request.uri] ?? range.offset
                if start > 0 {
                    request.initSection = .init(uri: request.uri, range: SegmentByteRange(offset: 0, length: start))
                }
            }
            requests.append(request)
        }
        let source = KnownPrefixSource(base: inspector.source, prefixes: prefixes)
        let outcomes = requests.isEmpty ? [] : await inspect(requests, from: source)
        var codecs: Set<String> = [], inspected = 0, fragmented = false
        for outcome in outcomes {
            guard case .success(let facts) = outcome else { continue }
            // A range that ends inside a packet (as ffmpeg cuts them) still says what it holds.
            // Tracks the init section declares but the range holds no sample of (the audio of a
            // muxed fMP4 resource) are not in the I-frame segment.
            let held = Set(facts.tracks.filter { $0.packetCount > 0 }.compactMap(\.codecString))
            guard !held.isEmpty else { continue }
            inspected += 1
            codecs.formUnion(held)
            fragmented = fragmented || facts.container == .fragmentedMP4
        }
        result.codecs = codecs.sorted()
        result.isComplete = inspected == chosen.count && inspected > 0
        if fragmented { result.missingMovieFragment = await movieFragmentProblems(segments, base: base) }
        var read: Set<String> = []
        for (request, outcome) in zip(requests, outcomes) {
            if case .success = outcome, let range = request.range { read.insert(Self.rangeKey(request.uri, range)) }
        }
        return read
    }

    /// The clear text of the first bytes of a resource under `key` (METHOD=AES-128), with the IV
    /// of `segment`, its first I-frame: the tag's, or the segment's media sequence number (RFC
    /// 8216 §5.2). Nil when the key is not 16 bytes.
    private func clearStart(_ cipher: [UInt8], key: EncryptionKey, segment: MediaSegment, base: String) async throws
        -> [UInt8]?
    {
        guard let uri = key.uri else { return nil }
        let keyBytes = try await inspector.source.read(
            URIResolver.resolve(uri, against: base), range: SegmentByteRange(offset: 0, length: 16))
        let iv =
            key.iv.flatMap { $0.count == 16 ? $0 : nil } ?? SegmentDecryption.iv(mediaSequence: segment.mediaSequence)
        return SegmentDecryption.clearStart(of: cipher, key: keyBytes, iv: iv)
    }

    /// AS 6.10: each fMP4 I-frame's byte range holds the `moof` of its fragment before any media
    /// data. `--sample` bounds the ranges read as it bounds segments; as many are read at once
    /// as segments are inspected. Ranges of encrypted resources are not walked.
    private func movieFragmentProblems(_ segments: [MediaSegment], base: String) async -> [IFramePlaylistInspection
        .Problem]
    {
        let ranged = segments.filter {
            $0.byteRange != nil && $0.unreadableByteRangeLine == nil && ($0.key?.method ?? "NONE") == "NONE"
        }
        let indices = Self.sampledIndices(count: ranged.count, sample: sample).sorted()
        let source = inspector.source
        var problems: [IFramePlaylistInspection.Problem] = []
        // The shape of MediaMeasurer.inspectAll: no nested function captures the group (a
        // release build of Swift 6.3.1 miscompiled that shape).
        await withTaskGroup(of: IFramePlaylistInspection.Problem?.self) { group in
            var next = 0
            while next < min(max(1, maxConcurrent), indices.count) {
                let segment = ranged[indices[next]]
                group.addTask { await Self.movieFragmentProblem(segment, base: base, source: source) }
                next += 1
            }
            while let problem = await group.next() {
                if let problem { problems.append(problem) }
                if next < indices.count {
                    let segment = ranged[indices[next]]
                    group.addTask { await Self.movieFragmentProblem(segment, base: base, source: source) }
                    next += 1
                }
            }
        }
        return problems.sorted { $0.line < $1.line }
    }

    /// Why `segment`'s byte range holds no `moof`; nil when it does, or when it cannot be read.
    private static func movieFragmentProblem(
        _ segment: MediaSegment, base: String, source: any SegmentByteSource
    ) async -> IFramePlaylistInspection.Problem? {
        guard let range = segment.byteRange,
            let bytes = try? await source.open(
                URIResolver.resolve(segment.uri, against: base),
                range: SegmentByteRange(offset: range.offset, length: range.length)),
            let reason = MovieFragmentWalk.problem(bytes)
        else { return nil }
        return IFramePlaylistInspection.Problem(line: segment.extinfLine ?? segment.uriLine, message: reason)
    }
}

/// What a resource's first bytes must be to start with a Media Initialization Section
/// (bis-22 §3: for MPEG-TS a PAT followed by the PMT of its program; for fMP4 an `ftyp` and
/// the `moov` that describes the tracks).
enum InitializationSectionShape {
    /// Why `prefix`, the first bytes of a resource (up to its first I-frame at `endsAt`, when that
    /// is known and above 0), does not start with an initialization section; nil when it does.
    static func problem(inPrefix prefix: [UInt8], endsAt: Int?) -> String? {
        let before = endsAt.map { " before its first I-frame (byte \($0))" } ?? ""
        if prefix.first == TransportStreamPacket.syncByte {
            var pmtPID: UInt16?
            var offset = 0
            while offset + TransportStreamPacket.size <= prefix.count {
                guard let packet = TransportStreamPacket(prefix[offset..<(offset + TransportStreamPacket.size)]) else {
                    return "its bytes lose the transport stream's packet sync at byte \(offset), before the PAT and PMT"
                }
                offset += TransportStreamPacket.size
                if packet.pid == 0, pmtPID == nil, packet.payloadUnitStart,
                    let pat = section(packet.payload).flatMap(ProgramAssociationSection.init),
                    let pid = pat.programs.values.min()
                {
                    pmtPID = pid
                } else if let pid = pmtPID, packet.pid == pid, packet.payloadUnitStart {
                    return nil
                } else if packet.pid >= 0x20 && packet.pid != TransportStreamPacket.nullPID {
                    // Media before the tables: the resource does not start with them.
                    return pmtPID == nil
                        ? "it starts with media packets (PID \(packet.pid)) before any PAT: the Media Initialization Section (PAT and PMT) must come first"
                        : "it starts with media packets (PID \(packet.pid)) between the PAT and the PMT: the Media Initialization Section (PAT and PMT) must come first"
                }
            }
            return pmtPID == nil
                ? "its first \(prefix.count) bytes\(before) hold no PAT"
                : "its first \(prefix.count) bytes\(before) hold the PAT but not the PMT"
        }
        var offset = 0, sawFileType = false
        while offset + 8 <= prefix.count {
            let size = prefix[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: prefix[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "ftyp" { sawFileType = true }
            if type == "moov" { return sawFileType ? nil : "it has a moov but no ftyp before it" }
            if type == "moof" || type == "mdat" { break }
            guard size >= 8 else { break }
            offset += size
        }
        if sawFileType { return "its first bytes\(before) hold an ftyp but no moov" }
        return
            "it does not start with a Media Initialization Section (a PAT and PMT for MPEG-TS, an ftyp and moov for fMP4)"
    }

    /// The PSI section a packet's payload starts (after its pointer_field).
    private static func section(_ payload: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let pointer = payload.first else { return nil }
        let start = payload.startIndex + 1 + Int(pointer)
        return start < payload.endIndex ? payload[start...] : nil
    }
}

/// The top-level boxes of an fMP4 I-frame's byte range (ISO/IEC 14496-12 §4.2, §8.8.4).
enum MovieFragmentWalk {
    /// Why the range `bytes` holds no `moof` before its media data; nil when it does.
    static func problem(_ bytes: any RandomAccessBytes) -> String? {
        var offset = 0
        while offset + 8 <= bytes.count {
            guard let header = try? bytes.bytes(at: offset, length: 8), header.count == 8 else { break }
            let size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "moof" { return nil }
            if type == "mdat" {
                return offset == 0
                    ? "its byte range starts with the mdat, without the moof that describes the I-frame"
                    : "its byte range reaches the mdat (at byte \(offset) of the range) without a moof before it"
            }
            guard size >= 8, type.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                return "its byte range does not start at a box boundary: no moof is found"
            }
            offset += size
        }
        return "its byte range holds no moof"
    }
}

/// A source that answers the reads of resources' starts already read (`prefixes`, from byte 0)
/// from memory: an I-frame's initialization section is the start of its resource that
/// `inspectIFrames` has just read, so it is not fetched twice.
private struct KnownPrefixSource: SegmentByteSource {
    var base: any SegmentByteSource
    var prefixes: [String: [UInt8]]

    private func known(_ uri: String, _ range: SegmentByteRange?) -> [UInt8]? {
        guard let range, range.offset == 0, let bytes = prefixes[uri], bytes.count == range.length else { return nil }
        return bytes
    }

    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        if let bytes = known(uri, range) { return bytes }
        return try await base.read(uri, range: range)
    }

    func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
        if let bytes = known(uri, range) { return InMemoryBytes(bytes) }
        return try await base.open(uri, range: range)
    }

    func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        base.residentByteEstimate(uri, range: range)
    }

    func readingAhead<Value: Sendable>(_ requests: [SegmentRequest], _ body: (any SegmentByteSource) async -> Value)
        async -> Value
    {
        let prefixes = prefixes
        return await base.readingAhead(requests) { source in
            await body(KnownPrefixSource(base: source, prefixes: prefixes))
        }
    }
}
