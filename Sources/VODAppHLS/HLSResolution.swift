import VODAppModel

/// A variant's RESOLUTION attribute: `1280x720`.
public struct HLSResolution: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixels: Int { width * height }

    public var description: String { "\(width)x\(height)" }
}
