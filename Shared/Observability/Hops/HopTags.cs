namespace Notifications.Shared.Observability.Hops;

/// <summary>
/// The <c>lane</c> tag of the hop histograms, as cached pairs so that recording with it allocates nothing: <c>urgent</c>
/// (the urgent queue and the producer's urgent claim loop) or <c>standard</c> (normal and bulk, which share the work queue).
/// </summary>
public static class HopTags
{
    /// <summary>The tag's key.</summary>
    public const string LaneKey = "lane";

    /// <summary>The urgent lane.</summary>
    public static readonly KeyValuePair<string, object?> Urgent = new(LaneKey, "urgent");

    /// <summary>The standard lane (normal and bulk).</summary>
    public static readonly KeyValuePair<string, object?> Standard = new(LaneKey, "standard");

    /// <summary>The lanes a report tells apart, in order; index 0 is a measurement without a lane tag.</summary>
    internal static readonly string[] Lanes = ["", "urgent", "standard"];

    /// <summary>The tag of a lane by name (<c>urgent</c>; anything else is standard).</summary>
    public static KeyValuePair<string, object?> For(string lane) => lane == "urgent" ? Urgent : Standard;

    /// <summary>The index in <see cref="Lanes"/> of a measurement's tags.</summary>
    internal static int LaneIndex(ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        foreach (var tag in tags)
        {
            if (tag.Key == LaneKey)
            {
                return (tag.Value as string) switch
                {
                    "urgent" => 1,
                    "standard" => 2,
                    _ => 0,
                };
            }
        }

        return 0;
    }
}
