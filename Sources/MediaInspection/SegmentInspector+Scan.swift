import MediaFormats

extension SegmentInspector {
    /// What our own readers find in segment bytes held in memory, without libavformat: the
    /// container (by the URI's extension, else sniffed) and any layout problem (an fMP4 fragment
    /// without its init section, a partial TS packet), every ID3 tag with its APIC pictures (the
    /// same facts `inspect` gives: `PictureFacts` decoded and hashed alike), the packed-audio
    /// PRIV timestamp and, with it, `firstPTS`, and the TS continuity counters.
    ///
    /// The demuxer's facts — tracks, codecs, durations, the first timestamp of TS and fMP4,
    /// keyframes — are absent: this is for a caller that knows them already because it wrote the
    /// bytes from a segment it inspected and changed only the ID3 metadata (`hlscheck embed`
    /// re-checking its output, docs/embed.md, "The re-check"). `problem` is set when the bytes
    /// are not what such a caller expects; the caller then inspects them for real.
    package func scannedFacts(uri: String, bytes: [UInt8], hasInitSection: Bool) -> SegmentFacts {
        let source = InMemoryBytes(bytes)
        let (container, layoutProblem) = ContainerSniffer.container(
            uri: uri, source: source, hasInitSection: hasInitSection)
        var problems = [layoutProblem]
        if container == .mpegTS, bytes.count % 188 != 0 {
            problems.append("ends in a partial transport stream packet (\(bytes.count % 188) of 188 bytes)")
        }
        if bytes.isEmpty { problems.append("segment is empty") }
        let demuxed = DemuxPassResult(
            facts: SegmentFacts(uri: uri, byteCount: bytes.count, container: container), container: container,
            problems: problems)
        let scanned: ScanResult
        if container == .mpegTS {
            // The scanner a check feeds as it reads a segment: TS packet headers read in place,
            // only the table and timed-ID3 packets copied (a walk building every packet costs
            // more, and embed scans every segment it writes).
            let scanner = TransportStreamScanner(count: bytes.count, maximumTagBytes: maximumID3Bytes)
            bytes.withUnsafeBytes { scanner.feed($0) }
            let (continuity, tags) = scanner.finish()
            scanned = ScanResult(found: tags, continuity: continuity)
            return Self.finish(demuxed, scanned, maximumImagePixels: maximumImagePixels, images: decodedImages)
        }
        do {
            scanned = try Self.scanPass(
                uri: uri, segment: source, container: container, maximumID3Bytes: maximumID3Bytes)
        } catch {
            var facts = Self.finish(
                demuxed, ScanResult(), maximumImagePixels: maximumImagePixels, images: decodedImages)
            facts.problem = error.reason
            return facts
        }
        return Self.finish(demuxed, scanned, maximumImagePixels: maximumImagePixels, images: decodedImages)
    }
}
