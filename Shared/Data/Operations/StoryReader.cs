using Dapper;

namespace Notifications.Shared.Data.Operations;

/// <summary>Reads the eight result sets of a story's one round trip, in both dialects' order.</summary>
internal static class StoryReader
{
    public static async Task<NotificationRecords> ReadAsync(SqlMapper.GridReader results) => new()
    {
        Outbox = await results.ReadSingleOrDefaultAsync<StoryOutboxRow>(),
        Log = await results.ReadSingleOrDefaultAsync<StoryLogRow>(),
        DeadLetters = (await results.ReadAsync<StoryDeadLetterRow>()).AsList(),
        Rejected = await results.ReadSingleOrDefaultAsync<StoryRejectedRow>(),
        FanOut = await results.ReadSingleOrDefaultAsync<StoryFanOutRow>(),
        Delivery = await results.ReadSingleOrDefaultAsync<StoryDeliveryRow>(),
        Outcomes = (await results.ReadAsync<StoryOutcomeRow>()).AsList(),
        Attempts = (await results.ReadAsync<StoryAttemptRow>()).AsList(),
    };
}
