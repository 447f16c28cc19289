namespace Notifications.Shared.Data.Operations;

/// <summary>Which of a dialect's search statements a kind runs, and their parameters: the same for both dialects.</summary>
internal static class SearchSql
{
    public static string For(NotificationSearchKind kind, string keySql, string recipientSql, string subscriberSql) => kind switch
    {
        NotificationSearchKind.IdempotencyKey => keySql,
        NotificationSearchKind.Recipient => recipientSql,
        NotificationSearchKind.Subscriber => subscriberSql,
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "an id needs no search"),
    };

    public static object Parameters(string text, long? before, int limit) => new { Text = text, Before = before ?? long.MaxValue, Limit = limit };
}
