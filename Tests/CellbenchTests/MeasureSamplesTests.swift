import Testing
@testable import cellbench

@Suite struct MeasureSamplesTests {
    /// `medianIndex` picks the sample whose value is the median (the lower middle one for an
    /// even count) against sorting the values themselves, ties and all.
    @Test func medianIndexPointsAtTheMedianSample() {
        var rng = SplitMix64(state: 11)
        for count in 1...9 {
            for _ in 0..<50 {
                let values = (0..<count).map { _ in Double(rng.next() % 7) }
                let i = MeasureSuite.medianIndex(values)
                #expect(values[i] == values.sorted()[(count - 1) / 2], "\(values)")
            }
        }
        #expect(MeasureSuite.medianIndex([120, 70, 95]) == 2)
    }
}
