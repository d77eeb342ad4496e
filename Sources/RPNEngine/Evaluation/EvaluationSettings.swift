// What changes the result of evaluation (as opposed to its display): the angle mode.

/// How trigonometry reads and gives angles: radians or degrees. The user's setting keeps its
/// name, `angleUnit`; in code it is a mode, so that "unit" means a unit of measure only.
package enum AngleMode: String, Sendable, CaseIterable {
  case radians
  case degrees
}

/// What changes the result of evaluation (as opposed to its display).
package struct EvaluationSettings: Equatable, Sendable {
  package var angleMode: AngleMode

  package init(angleMode: AngleMode = .radians) {
    self.angleMode = angleMode
  }
}
