using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Bounces.Effects;
using Notifications.Bounces.Reports;
using Notifications.Bounces.Smtp;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.Bounces;

/// <summary>DI wiring of the bounce receiver: the return path, the SMTP listener, the parser, the effects and the operations endpoint.</summary>
public static class BounceReceiverHostingExtensions
{
    /// <summary>The operations endpoint's port (<c>/metrics</c>, <c>/health/*</c>) unless <c>Metrics:Port</c> sets one.</summary>
    public const int MetricsPort = 9469;

    /// <summary>Adds the bounce receiver and everything it needs.</summary>
    public static IHostApplicationBuilder AddBounceReceiver(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        // The suppression store comes with the database (AddNotificationsDatabase): the one the consumer and the admin tool use.
        services.AddNotificationsDatabase("notifications-bounces", DatabaseOptions.BouncesPoolSize).AddReturnPath();
        services.AddOptions<BounceReceiverOptions>().BindConfiguration(BounceReceiverOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<IValidateOptions<BounceReceiverOptions>, BounceReceiverOptionsValidator>();
        builder.AddNotificationsServerOperations(MetricsPort, "notifications-bounces", BounceMetrics.MeterName);
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<BounceMetrics>();
        services.AddSingleton<IBounceDatabase>(sp => Database(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresBounceDatabase(sp.GetRequiredService<NpgsqlDataSource>(), Database(sp)),
            _ => new SqlServerBounceDatabase(Database(sp)),
        });
        services.AddSingleton<BounceParser>();
        // The outcome events' one writer (docs/outcome-events.md): a bounce or complaint recorded is an event in the same transaction.
        services.AddSingleton(sp => new OutcomeEvents(Database(sp)));
        services.AddSingleton<BounceEffects>();
        services.AddSingleton<BounceReportWriter>();
        services.AddSingleton<BounceMailboxFilter>();
        services.AddSingleton<BounceMessageStore>();
        services.AddSingleton<BounceSmtpListener>();
        services.AddHostedService(sp => sp.GetRequiredService<BounceSmtpListener>());
        return builder;
    }

    private static DatabaseOptions Database(IServiceProvider sp) => sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
}
