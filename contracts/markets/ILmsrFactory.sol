// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ILmsrFactory
/// @notice Events and errors of the LMSR market factory (deployed once per outcome count).
interface ILmsrFactory {
    /// @notice A market was created; carries everything an indexer needs to track it. The fees are the factory's
    /// defaults stamped into the market at creation (they never change for it). `termsHash` is the hash of the
    /// creation terms the service negotiated with the creator (zero when created without a negotiation): it binds
    /// this transaction to one negotiation, so a creation receipt cannot be presented for another.
    event MarketCreated(
        address indexed market,
        uint256 indexed marketId,
        address indexed creator,
        address collateral,
        uint8 outcomeCount,
        uint256 b,
        uint256 seed,
        uint16 buyFeeBps,
        uint16 sellExitFeeBps,
        uint16 winningsExitFeeBps,
        uint64 closeTime,
        bytes32 questionHash,
        string question,
        bytes32 termsHash
    );
    /// @notice A collateral token was enabled or disabled.
    event CollateralSet(address indexed token, bool enabled);
    /// @notice The fee recipient changed.
    event TreasurySet(address indexed treasury);
    /// @notice The fee defaults stamped into new markets changed (existing markets keep theirs).
    event FeeDefaultsSet(uint16 sellExitFeeBps, uint16 winningsExitFeeBps);

    /// @notice The collateral is not enabled.
    error LmsrFactoryCollateralNotEnabled(address token);
    /// @notice closeTime is not in the future.
    error LmsrFactoryBadCloseTime(uint64 closeTime, uint256 now_);
    /// @notice A fee default above the cap (`maxBps`); both proposed values are given.
    error LmsrFactoryFeeTooHigh(uint16 sellExitFeeBps, uint16 winningsExitFeeBps, uint16 maxBps);
    /// @notice A seed too small to give b > 0.
    error LmsrFactorySeedTooSmall(uint256 seed);
}
