import Testing
@testable import cellbench

@Suite struct DiffOptionsTests {
    @Test func rowsMustBeAWholeNumberInRange() throws {
        #expect(try OptionError.integer("1_000_000", "--rows", in: 1_000...20_000_000) == 1_000_000)
        #expect(throws: OptionError.self) { try OptionError.integer("abc", "--rows", in: 1_000...20_000_000) }
        #expect(throws: OptionError.self) { try OptionError.integer("1e6", "--rows", in: 1_000...20_000_000) }
        #expect(throws: OptionError.self) { try OptionError.integer("999", "--rows", in: 1_000...20_000_000) }
        #expect(throws: OptionError.self) { try OptionError.integer("", "--rows", in: 1_000...20_000_000) }
        do {
            _ = try OptionError.integer("12x", "--rows", in: 1_000...20_000_000)
        } catch {
            #expect(error.description == "--rows: '12x' is not a whole number")
        }
    }

    @Test func casesAreParsedAndUnknownOnesRejected() throws {
        let command = try Diff.parse(["--cases", "sparse_1m,diffkit_100k", "--rows", "2000"])
        let options = try command.options()
        #expect(options.cases == [.sparse, .diffkit] && options.rows == 2_000)
        #expect(try Diff.parse([]).options().cases == DiffCase.allCases)
        // parse() validates: a bad value fails there, with the one-line message.
        for arguments in [["--cases", "sparse_1m,apply"], ["--cases", "sparse_1m,sparse_1m"], ["--rows", "-5"],
                          ["--rows", "20000001"], ["--seed", "x"], ["--repetitions", "0"], ["--peer-max-edits", "1e4"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try Diff.parse(arguments) }
        }
        #expect(Diff.message(for: OptionError("--rows: 'x' is not a whole number")) == "--rows: 'x' is not a whole number")
    }

    @Test func allocationCountingWorks() {
        #expect(AllocationCounter.calibrate())
    }
}
