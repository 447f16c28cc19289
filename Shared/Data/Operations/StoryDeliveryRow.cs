namespace Notifications.Shared.Data.Operations;

/// <summary>A fan-out delivery: the notification it comes from, the subscriber (the app's id; null once erased), channel and address.</summary>
public sealed class StoryDeliveryRow
{
    /// <summary>The <c>parent_id</c> column.</summary>
    public long ParentId { get; init; }

    /// <summary>The <c>subscriber</c> column.</summary>
    public string? Subscriber { get; init; }

    /// <summary>The <c>channel</c> column.</summary>
    public string? Channel { get; init; }

    /// <summary>The <c>address</c> column.</summary>
    public string? Address { get; init; }

    /// <summary>The <c>job_created_at</c> column.</summary>
    public DateTime JobCreatedAt { get; init; }
}
