namespace Notifications.Consumer.Settling;

/// <summary>
/// How to acknowledge a set of finished deliveries on one channel with the fewest frames. One
/// <c>basic.ack(multiple)</c> covers every finished tag below the lowest still in progress (all tags
/// under it are settled, now or earlier); tags above it are acked one by one so a slow message never
/// holds the rest of the prefetch window hostage.
/// </summary>
/// <param name="MultipleUpTo">Ack every unsettled tag up to and including this one, if set.</param>
/// <param name="Singles">Tags to ack individually.</param>
internal sealed record AckPlan(ulong? MultipleUpTo, IReadOnlyList<ulong> Singles)
{
    /// <param name="finished">Tags finished since the last flush (each once).</param>
    /// <param name="lowestInProgress">The lowest delivered tag not yet finished, or null if none.</param>
    public static AckPlan Create(IReadOnlyCollection<ulong> finished, ulong? lowestInProgress)
    {
        if (finished.Count == 0)
        {
            return new AckPlan(null, []);
        }

        if (lowestInProgress is not { } lowest)
        {
            return new AckPlan(finished.Max(), []);
        }

        ulong? multiple = null;
        var singles = new List<ulong>();
        foreach (ulong tag in finished)
        {
            if (tag < lowest)
            {
                multiple = multiple is { } m && m > tag ? m : tag;
            }
            else
            {
                singles.Add(tag);
            }
        }

        singles.Sort();
        return new AckPlan(multiple, singles);
    }
}
