namespace Notifications.Admin.Operations;

/// <summary>One step of a notification's story: inserted, claimed, fanned out, attempts, delivered, suppressed, dead-lettered, ... (At null: not kept).</summary>
public sealed record StoryStep(string Step, DateTimeOffset? At, string Detail);
