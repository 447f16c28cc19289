namespace Notifications.Shared.Data.Operations;

/// <summary>An audience row's fan-out job: to whom, since when (the claim), its state and when it finished.</summary>
public sealed class StoryFanOutRow
{
    /// <summary>The <c>audience</c> column.</summary>
    public string Audience { get; init; } = "";

    /// <summary>The <c>state</c> column.</summary>
    public string State { get; init; } = "";

    /// <summary>The <c>created_at</c> column.</summary>
    public DateTime CreatedAt { get; init; }

    /// <summary>The <c>finished_at</c> column.</summary>
    public DateTime? FinishedAt { get; init; }

    /// <summary>The <c>published</c> column.</summary>
    public long Published { get; init; }
}
