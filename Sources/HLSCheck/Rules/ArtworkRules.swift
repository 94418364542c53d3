import HLSPlaylist

/// The measured audio-only playlists: the variants that are audio-only, each with its measurement.
private func audioOnlyMeasurements(_ stream: StreamAnalysis) -> [(VariantAnalysis, PlaylistMeasurement)] {
    stream.variants.filter(\.isAudioOnly).compactMap { variant in
        variant.measurement.map { (variant, $0) }
    }
}

/// The poster is what pushes an audio-only variant over the budget.
package struct ArtworkOverBudgetRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-over-budget", name: "Poster blows the budget", defaultSeverity: .error, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "With its poster, an audio-only variant's measured peak exceeds the budget.",
        rationale:
            "The APIC image is repeated in every segment, so it counts against the 64 kbit/s audio-only budget (Apple QA1767): a 20 KiB JPEG in 6 s segments adds about 27 kbit/s.",
        specItems: [
            SpecItem(
                "QA1767", .must,
                "The audio-only variant peaks at 64 kbit/s or less, measured, with the still image it carries.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard configuration.budgetAppliesWithoutVideo || stream.hasVideo else { return [] }
        let budget = configuration.audioOnlyBudget
        return audioOnlyMeasurements(stream).compactMap { variant, measurement in
            guard let peak = measurement.peakBitrate, peak > budget,
                let audio = measurement.peakBitrateWithoutArtwork, audio <= budget,
                let largest = measurement.records.lazy.compactMap(\.artwork).max(by: { $0.byteCount < $1.byteCount })
            else { return nil }
            let fits: String
            if let partial = variant.partialMeasurementPhrase
                ?? (measurement.isComplete ? nil : "some segments could not be inspected")
            {
                fits = "\(partial), so no poster size can be promised"
            } else if let bytes = variant.largestPoster(within: budget) {
                fits = "a poster of at most \(bytes) bytes (as a JPEG) fits in every segment"
            } else {
                fits = "no poster fits"
            }
            return Finding(
                "the \(largest.byteCount)-byte poster raises \(variant.uri) to a \(peak.formattedBitrate(beside: budget)) peak against the \(budget.formattedBitrate) budget (\(audio.formattedBitrate(beside: budget)) without it): \(fits)",
                at: variant.location)
        }
    }
}

/// An audio-only variant without a still image: the viewer sees a black screen.
package struct ArtworkMissingRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-missing", name: "Audio-only variant without poster", defaultSeverity: .warning, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "An audio-only variant carries no still image (ID3 APIC) in its segments.",
        rationale:
            "Apple's HLS authoring guidance recommends a still image in the audio-only variant so players show something while they sit on it.",
        specItems: [.audioOnlyPoster],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        audioOnlyMeasurements(stream).compactMap { variant, measurement in
            let inspected = measurement.inspectedRecords
            guard !inspected.isEmpty, !inspected.contains(where: { $0.artwork != nil }) else { return nil }
            let room =
                variant.largestPoster(within: configuration.audioOnlyBudget).map {
                    "; up to \($0) bytes (as a JPEG) would fit the budget"
                } ?? ""
            return Finding(
                "audio-only variant \(variant.uri) carries no poster (ID3 APIC) in any of its \(inspected.count) segments\(room): a still image in every segment shows while players sit on this variant",
                at: variant.location)
        }
    }
}

/// The poster is missing from some segments or changes between them.
package struct ArtworkInconsistentRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-inconsistent", name: "Poster inconsistent", defaultSeverity: .warning, scope: .variant,
        settings: .audioOnlyBudget,
        summary: "The still image is absent from some segments of an audio-only variant, or differs between segments.",
        rationale:
            "A player joining at any segment shows that segment's image: an image in only some segments leaves a black screen after a seek or a switch.",
        specItems: [.audioOnlyPoster],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.variants.compactMap { variant -> Finding? in
            guard let measurement = variant.measurement else { return nil }
            // One pass: how many carry a poster, the first without, the first with, the first
            // whose poster differs from that one.
            var inspected = 0, withArtwork = 0
            var missing: SegmentRecord?, first: SegmentRecord?, different: SegmentRecord?
            // A final runt may go without the poster: no peak window measures it alone, and a
            // poster in it would only weigh twice in its neighbour's (docs/measurement.md,
            // "Runt segments"); `hlscheck embed` leaves it out there.
            let runt = measurement.finalRuntIndex
            for (index, record) in measurement.records.enumerated() where record.isInspected {
                if index == runt, record.artwork == nil { continue }
                inspected += 1
                guard let artwork = record.artwork else {
                    if missing == nil { missing = record }
                    continue
                }
                withArtwork += 1
                if let first {
                    if different == nil, artwork.contentHash != first.artwork?.contentHash { different = record }
                } else {
                    first = record
                }
            }
            guard let first else { return nil }
            let playlist = measurement.playlistURI
            if let missing {
                let count = inspected - withArtwork
                return Finding(
                    "\(count) of \(inspected) segments carry no poster, the first being \(missing.uri)",
                    at: SourceLocation(uri: playlist, line: missing.line))
            }
            if let different {
                return Finding(
                    "the poster in \(different.uri) differs from the one in \(first.uri)",
                    at: SourceLocation(uri: playlist, line: different.line))
            }
            return nil
        }
    }
}

/// APIC present but not a decodable JPEG or PNG, or declared with the wrong MIME type.
package struct ArtworkInvalidRule: Rule {
    package static let description = RuleDescription(
        id: "artwork-invalid", name: "Poster not a valid image", defaultSeverity: .error, scope: .variant,
        settings: [.rfc8216: .off],
        summary:
            "An APIC frame holds no decodable JPEG/PNG, declares a MIME type other than those, or declares one its bytes are not (a PNG labelled image/jpeg).",
        rationale:
            "Players show only JPEG or PNG still images; anything else costs budget and shows nothing (ID3v2.4 §4.14 APIC).",
        specItems: [
            SpecItem("ID3v2.4 §4.14", .must, "An APIC frame holds a picture of the MIME type it declares.")
        ],
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var findings: [Finding] = []
        var reported: Set<String> = []
        for measurement in stream.measurements.values.sorted(by: { $0.playlistURI < $1.playlistURI }) {
            for record in measurement.records {
                guard let artwork = record.artwork, !reported.contains(artwork.contentHash) else { continue }
                let location = SourceLocation(uri: measurement.playlistURI, line: record.line)
                if let problem = artwork.decodeProblem {
                    reported.insert(artwork.contentHash)
                    findings.append(
                        Finding(
                            "the poster in \(record.uri) (\(artwork.mimeType), \(artwork.byteCount) bytes) does not decode: \(problem)",
                            at: location))
                } else if !["image/jpeg", "image/jpg", "image/png"].contains(artwork.mimeType.lowercased()) {
                    reported.insert(artwork.contentHash)
                    findings.append(
                        Finding(
                            "the poster in \(record.uri) declares MIME type \"\(artwork.mimeType)\": use image/jpeg or image/png",
                            at: location))
                } else if let actual = artwork.contentType,
                    actual
                        != (artwork.mimeType.lowercased() == "image/jpg" ? "image/jpeg" : artwork.mimeType.lowercased())
                {
                    // A decoder that sniffs shows it anyway; one that trusts the declared type does not.
                    reported.insert(artwork.contentHash)
                    findings.append(
                        Finding(
                            "the poster in \(record.uri) declares MIME type \"\(artwork.mimeType)\" but its bytes are \(actual): declare \(actual), or re-embed it (hlscheck embed)",
                            at: location))
                }
            }
        }
        return findings
    }
}
