import HLSPlaylist

extension StreamAnalysis {
    /// Where to point a finding about the resource `uri`: the line that references a playlist
    /// (the root itself: line 0, the whole file), or a segment's line in its media playlist.
    func deliveryLocation(of uri: String) -> SourceLocation {
        if uri == loaded.rootURI { return SourceLocation(uri: uri, line: 0) }
        if let variant = variants.first(where: { $0.playlistURI == uri }) { return variant.location }
        if let multivariant {
            for rendition in multivariant.renditions
            where rendition.uri.map({ URIResolver.resolve($0, against: loaded.rootURI) }) == uri {
                return root.location(line: rendition.line, column: rendition.attributes["URI"]?.column ?? 0)
            }
            for variant in multivariant.iFrameVariants
            where URIResolver.resolve(variant.uri, against: loaded.rootURI) == uri {
                return root.location(line: variant.line)
            }
        }
        for measurement in measurements.values.sorted(by: { $0.playlistURI < $1.playlistURI }) {
            if let record = measurement.records.first(where: {
                URIResolver.resolve($0.uri, against: measurement.playlistURI) == uri
            }) {
                return SourceLocation(uri: measurement.playlistURI, line: record.line)
            }
        }
        return SourceLocation(uri: uri, line: 0)
    }
}
