using System.Net;
using System.Net.Http.Json;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Client;

/// <summary>samples/Orders, built from the packed client, changes its row and enqueues in one transaction.</summary>
[Collection("services")]
public sealed class SampleAppTests
{
    [Fact]
    public async Task OrdersSample_BuiltFromThePackedClient_EnqueuesWithTheOrderAndRollsBackWithIt()
    {
        var db = await TestDatabase.CleanAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync("DROP TABLE IF EXISTS sample_order");
        }

        await using var app = await SampleApp.StartAsync(TestServices.PostgresConnectionString, TestDatabase.Schema);
        using var http = new HttpClient { BaseAddress = app.BaseAddress };

        var ado = await PlaceAsync(http, "/orders", new { Recipient = "ado@example.com", Item = "a book" });
        var adoFailed = await http.PostAsJsonAsync("/orders", new { Recipient = "ado-ghost@example.com", Item = "a book", SimulateFailure = true });
        var ef = await PlaceAsync(http, "/ef/orders", new { Recipient = "ef@example.com", Item = "a pen", IdempotencyKey = "ef-order-1" });
        var efRetried = await PlaceAsync(http, "/ef/orders", new { Recipient = "ef@example.com", Item = "a pen", IdempotencyKey = "ef-order-1" });
        var efFailed = await http.PostAsJsonAsync("/ef/orders", new { Recipient = "ef-ghost@example.com", Item = "a pen", SimulateFailure = true });

        Assert.Equal(HttpStatusCode.UnprocessableEntity, adoFailed.StatusCode);
        Assert.Equal(HttpStatusCode.UnprocessableEntity, efFailed.StatusCode);
        Assert.Equal(ef.NotificationId, efRetried.NotificationId);
        await using var check = await TestDatabase.OpenAsync();
        var outbox = await check.QueryAsync<(long, string, string)>($"SELECT id, recipient, subject FROM {TestDatabase.Schema}.outbox ORDER BY id");
        Assert.Equal(
            [(ado.NotificationId, "ado@example.com", $"Order {ado.OrderId} confirmed"), (ef.NotificationId, "ef@example.com", $"Order {ef.OrderId} confirmed")],
            outbox);
        var orders = await check.QueryAsync<string>("SELECT recipient FROM sample_order ORDER BY id");
        Assert.Equal(["ado@example.com", "ef@example.com", "ef@example.com"], orders);
        Assert.Equal(1, await db.CountAsync("idempotency_key"));
    }

    private static async Task<OrderPlaced> PlaceAsync(HttpClient http, string path, object order)
    {
        using var response = await http.PostAsJsonAsync(path, order);
        Assert.True(response.IsSuccessStatusCode, $"POST {path}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        return (await response.Content.ReadFromJsonAsync<OrderPlaced>())!;
    }

    private sealed record OrderPlaced(long OrderId, long NotificationId);
}
