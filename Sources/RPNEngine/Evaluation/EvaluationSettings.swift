// What changes the result of evaluation (as opposed to its display): the angle unit.

/// The unit of angles for trigonometry (setting `angleUnit`).
package enum AngleUnit: String, Sendable, CaseIterable {
  case radians
  case degrees
}

/// What changes the result of evaluation (as opposed to its display).
package struct EvaluationSettings: Equatable, Sendable {
  package var angleUnit: AngleUnit

  package init(angleUnit: AngleUnit = .radians) {
    self.angleUnit = angleUnit
  }
}
