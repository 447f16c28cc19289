namespace Notifications.Shared.Observability.Hops;

/// <summary>One histogram instrument a <see cref="HopRecorder"/> aggregates, under the hop name the report gives it.</summary>
/// <param name="Instrument">The instrument's name (e.g. <c>notifications.queue.wait</c>), recorded in seconds.</param>
/// <param name="Hop">The report's name for it (e.g. <c>queue_wait</c>).</param>
/// <param name="Bounds">Its bucket boundaries (the same as the instrument's advice).</param>
/// <param name="Windowed">Also kept per <see cref="HopRecorder.WindowLength"/> window (the end-to-end figure).</param>
public sealed record HopDefinition(string Instrument, string Hop, double[] Bounds, bool Windowed = false);
