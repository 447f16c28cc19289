using System.Text.Json;
using System.Text.Json.Serialization;

namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// The column <c>fanout_job.parent</c>: the audience row as the producer claimed it, as JSON, so the job outlives the
/// outbox row and every delivery copies the same fields (source-generated, like the wire contract).
/// </summary>
internal static class FanOutParentJson
{
    public static string Serialize(OutboxRow row) => JsonSerializer.Serialize(row, FanOutJsonContext.Default.OutboxRow);

    public static OutboxRow Deserialize(string json) =>
        JsonSerializer.Deserialize(json, FanOutJsonContext.Default.OutboxRow)
        ?? throw new InvalidDataException("fanout_job.parent is JSON null, not an outbox row");

    /// <summary>The parameters of a job's insert in the claim's transaction (<c>@Id, @Audience, @Channels, @Category, @Parent</c>).</summary>
    public static object InsertParameters(FanOutJob job) =>
        new { job.Id, job.Audience, job.Channels, job.Category, Parent = Serialize(job.Parent) };
}

[JsonSerializable(typeof(OutboxRow))]
internal sealed partial class FanOutJsonContext : JsonSerializerContext;
