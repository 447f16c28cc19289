using Dapper;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>A topic of many subscribers seeded fast, and what its fan-out wrote, for the fan-out's fault and lane tests.</summary>
internal static class FanOutProbe
{
    // Subscribers user-1..user-N, each with one address, all on topic "everyone" (as the owner: the registry's rows, fast).
    public static async Task SeedTopicAsync(int subscribers)
    {
        await using var owner = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        await owner.ExecuteAsync($"""
            INSERT INTO {s}.subscriber (external_id) SELECT 'user-' || g FROM generate_series(1, @subscribers) AS g ORDER BY g;
            INSERT INTO {s}.contact_point (subscriber_id, channel, address) SELECT id, 'email', external_id || '@example.com' FROM {s}.subscriber;
            INSERT INTO {s}.topic (name) VALUES ('everyone');
            INSERT INTO {s}.subscription (topic_id, subscriber_id) SELECT t.id, sb.id FROM {s}.topic AS t CROSS JOIN {s}.subscriber AS sb;
            """, new { subscribers }, commandTimeout: 120);
    }

    public static async Task<(string State, long CursorPages)> JobAsync(long parent, int pageSize)
    {
        await using var connection = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        // The cursor in pages: how many subscribers (in id order) are at or below it. No job yet (the row not claimed): none.
        return await connection.QuerySingleOrDefaultAsync<(string, long)?>($"""
            SELECT j.state, (SELECT count(*) FROM {s}.subscriber AS sb WHERE sb.id <= j."cursor") / @pageSize
            FROM {s}.fanout_job AS j WHERE j.id = @parent
            """, new { parent, pageSize }) ?? ("none", 0);
    }

    public static async Task<List<long>> PublishedIdsAsync(long parent)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>(
            $"SELECT id FROM {TestDatabase.Schema}.audience_delivery WHERE parent_id = @parent AND outcome = 'published'", new { parent })).AsList();
    }

    public static async Task<List<string>> PublishedAddressesAsync(long parent)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<string>(
            $"SELECT address FROM {TestDatabase.Schema}.audience_delivery WHERE parent_id = @parent AND outcome = 'published'", new { parent })).AsList();
    }
}
