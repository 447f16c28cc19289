using System.Diagnostics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Data.SqlServer;
using Npgsql;
using Serilog;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring both workers share.</summary>
public static class NotificationsHostingExtensions
{
    /// <summary>
    /// Serilog as the logging provider, configured from the <c>Serilog</c> section and
    /// <c>Logging:Format</c> (<c>text</c> for people, <c>json</c> for machines, see <see cref="LogFormats"/>).
    /// </summary>
    public static IHostApplicationBuilder AddNotificationsLogging(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var configuration = builder.Configuration;
        string application = builder.Environment.ApplicationName;
        builder.Logging.ClearProviders();
        // writeToProviders: a logging provider registered later (an exporter) still receives every event.
        builder.Services.AddSerilog(
            logger => logger
                .ReadFrom.Configuration(configuration)
                .Enrich.FromLogContext()
                .Enrich.WithProperty("Application", application)
                .WriteTo.Console(LogFormats.For(configuration)),
            preserveStaticLogger: true,
            writeToProviders: true);
        return builder;
    }

    /// <summary>Validated <see cref="RabbitMqOptions"/> from section <c>RabbitMq</c>.</summary>
    public static IServiceCollection AddRabbitMqOptions(this IServiceCollection services)
    {
        services.AddOptions<RabbitMqOptions>().BindConfiguration(RabbitMqOptions.SectionName)
            .PostConfigure<IConfiguration>(ReplaceRetryDelays)
            .ValidateDataAnnotations().ValidateOnStart();
        return services;
    }

    /// <summary>The fault-injection hook (inactive unless <c>Faults:KillAt</c> is set).</summary>
    public static IServiceCollection AddFaultInjection(this IServiceCollection services)
    {
        services.AddOptions<FaultOptions>().BindConfiguration(FaultOptions.SectionName);
        services.AddSingleton<FaultInjector>();
        return services;
    }

    /// <summary>
    /// The outbox and delivery-log stores of the configured <see cref="DatabaseProvider"/>, on a pool of at most
    /// <see cref="DatabaseOptions.MaxPoolSize"/> connections, else <paramref name="poolSize"/> (the worker's bound), named
    /// <paramref name="applicationName"/> on the server (see <see cref="DatabasePool"/>).
    /// </summary>
    public static IServiceCollection AddNotificationsDatabase(this IServiceCollection services, string applicationName, int poolSize)
    {
        services.AddOptions<DatabaseOptions>().BindConfiguration(DatabaseOptions.SectionName)
            .PostConfigure(o => o.ConnectionString = DatabasePool.Bound(o, applicationName, poolSize))
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => PostgresDataSource(Options(sp).ConnectionString)
            // Commands are traced only inside a trace (a batch, a delivery-log statement): the outbox polls,
            // backlog counts and health checks would otherwise each make a trace of their own, as would the
            // pool's physical connection opens, which have no filter.
            .ConfigureTracing(t => t.ConfigureCommandFilter(_ => Activity.Current is not null).EnablePhysicalOpenTracing(false))
            .Build());
        services.AddSingleton<IOutboxStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresOutboxStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerOutboxStore(Options(sp)),
        });
        services.AddSingleton<IFanOutStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresFanOutStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerFanOutStore(Options(sp)),
        });
        services.AddSingleton<IDeliveryLogStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresDeliveryLogStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerDeliveryLogStore(Options(sp)),
        });
        services.AddSingleton<IOperationsStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresOperationsStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerOperationsStore(Options(sp)),
        });
        services.AddSingleton<ILivePendingStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresLivePendingStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerLivePendingStore(Options(sp)),
        });
        services.AddSingleton<ILiveBroadcastStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresLiveBroadcastStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerLiveBroadcastStore(Options(sp)),
        });
        services.AddNotificationStatusStores();
        return services;
    }

    // GSS session encryption off unless the connection string sets it (PostgresConnectionDefaults).
    private static NpgsqlDataSourceBuilder PostgresDataSource(string connectionString)
    {
        var builder = new NpgsqlDataSourceBuilder(PostgresConnectionDefaults.GssOff(connectionString));

        // The workers run a handful of statements, each thousands of times a second, on pooled connections. Prepared on a
        // connection's second use, they are parsed and planned once instead of every time; and a connection back in the
        // pool is not reset (DISCARD ALL, which would also drop those statements), as the workers leave no session state
        // behind (no SET, temporary table or session lock; the urgent listener UNLISTENs before it returns its connection).
        // Measured: the database's CPU per notification 29-31 -> 22 us (docs/benchmarks, "Profile and cuts"). A connection
        // string that sets either keeps its own.
        if (!PostgresConnectionDefaults.Sets(connectionString, "MaxAutoPrepare"))
        {
            builder.ConnectionStringBuilder.MaxAutoPrepare = 32;
            builder.ConnectionStringBuilder.AutoPrepareMinUsages = 2;
        }

        if (!PostgresConnectionDefaults.Sets(connectionString, "NoResetOnClose"))
        {
            builder.ConnectionStringBuilder.NoResetOnClose = true;
        }

        return builder;
    }

    // The binder appends configured array items to an initialized array (the default delays) instead of
    // replacing it; configured delays are meant to be the whole list.
    private static void ReplaceRetryDelays(RabbitMqOptions options, IConfiguration configuration)
    {
        var delays = configuration.GetSection($"{RabbitMqOptions.SectionName}:{nameof(RabbitMqOptions.RetryDelays)}");
        if (delays.GetChildren().Any())
        {
            options.RetryDelays = delays.Get<TimeSpan[]>() ?? [];
        }
    }

    private static DatabaseOptions Options(IServiceProvider sp) => sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
}
