using Notifications.Admin.Status;

namespace Notifications.OperatorConsole.Overview;

/// <summary>What the overview's figures show once a second: <c>admin status</c>'s report and the workers' own endpoints.</summary>
internal sealed record OverviewFigures(StatusReport Report, IReadOnlyList<WorkerReading> Workers);
