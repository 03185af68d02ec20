// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IOrderbookFactory} from "./IOrderbookFactory.sol";

/// @title OrderbookFactory
/// @notice The factory of the committed lane's ORDERBOOK markets, as far as the chain is concerned: it holds the fee
/// defaults that the service stamps into every order-book market it creates, so they are public, live and changed
/// only by the admin with an event. It holds no collateral and deploys nothing: order-book markets, their balances
/// and their fills live in the CommittedLedger (`ledger`), created by the service's journaled createMarket command.
/// The name follows the interface contract, which lists it as `factories.orderbook` next to the LMSR factories and
/// reads "factory defaults" for GET /discover/fees. Per-market stamped values prevail over these defaults.
/// Hazard: the chain does not enforce that the service stamps these values; replaying the journal shows what it did.
contract OrderbookFactory is IOrderbookFactory, AccessControl {
    /// @notice Cap on each fee default, the same as LmsrFactory.MAX_FEE_BPS.
    uint16 public constant MAX_FEE_BPS = 1_000;
    /// @notice Fee on placing, replacing or cancelling an order: always 0.
    uint16 public constant PLACE_FEE_BPS = 0;

    /// @notice The CommittedLedger in which this factory's markets live.
    address public immutable ledger;

    /// @dev Taker-fee model stamped into new markets.
    FeePolicyVersion private _feePolicyVersion;
    /// @dev Taker fee (bps) of wallet-router market orders.
    uint16 private _routerTakerFeeBps;
    /// @dev Taker fee (bps) of operator-matched signed limit fills.
    uint16 private _operatorBatchFeeBps;
    /// @dev Fee (bps) on redeemed winnings.
    uint16 private _winningsExitFeeBps;

    /// @param admin Holds DEFAULT_ADMIN_ROLE (sets the fee defaults).
    /// @param ledger_ The CommittedLedger of the committed lane.
    /// @param feePolicyVersion_ Initial taker-fee model (0 notional-v1, 1 shares-v2); the other parameters are the
    /// initial fee defaults in bps, each at most MAX_FEE_BPS.
    constructor(
        address admin,
        address ledger_,
        uint8 feePolicyVersion_,
        uint16 routerTakerFeeBps_,
        uint16 operatorBatchFeeBps_,
        uint16 winningsExitFeeBps_
    ) {
        if (admin == address(0) || ledger_ == address(0)) revert OrderbookFactoryZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        ledger = ledger_;
        _setFeeDefaults(feePolicyVersion_, routerTakerFeeBps_, operatorBatchFeeBps_, winningsExitFeeBps_);
    }

    /// @notice Sets the fee defaults of order-book markets created from now on (existing markets keep theirs). Only
    /// the admin; `feePolicyVersion` 0 (notional-v1) or 1 (shares-v2), each fee at most MAX_FEE_BPS.
    function setFeeDefaults(
        uint8 feePolicyVersion,
        uint16 routerTakerFeeBps,
        uint16 operatorBatchFeeBps,
        uint16 winningsExitFeeBps
    ) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFeeDefaults(feePolicyVersion, routerTakerFeeBps, operatorBatchFeeBps, winningsExitFeeBps);
    }

    /// @notice The fee defaults of a new order-book market, in the order of GET /discover/fees `orderbook`.
    function feeDefaults()
        external
        view
        returns (
            FeePolicyVersion feePolicyVersion,
            uint16 placeFeeBps,
            uint16 routerTakerFeeBps,
            uint16 operatorBatchFeeBps,
            uint16 winningsExitFeeBps
        )
    {
        return (_feePolicyVersion, PLACE_FEE_BPS, _routerTakerFeeBps, _operatorBatchFeeBps, _winningsExitFeeBps);
    }

    function _setFeeDefaults(
        uint8 feePolicyVersion,
        uint16 routerTakerFeeBps,
        uint16 operatorBatchFeeBps,
        uint16 winningsExitFeeBps
    ) private {
        // Taken as uint8 so that an unknown version fails with a named error, not an ABI-decoding revert.
        if (feePolicyVersion > uint8(type(FeePolicyVersion).max)) revert OrderbookFactoryUnknownFeePolicy(feePolicyVersion);
        if (routerTakerFeeBps > MAX_FEE_BPS || operatorBatchFeeBps > MAX_FEE_BPS || winningsExitFeeBps > MAX_FEE_BPS) {
            revert OrderbookFactoryFeeTooHigh(routerTakerFeeBps, operatorBatchFeeBps, winningsExitFeeBps, MAX_FEE_BPS);
        }
        FeePolicyVersion version = FeePolicyVersion(feePolicyVersion);
        _feePolicyVersion = version;
        _routerTakerFeeBps = routerTakerFeeBps;
        _operatorBatchFeeBps = operatorBatchFeeBps;
        _winningsExitFeeBps = winningsExitFeeBps;
        emit FeeDefaultsSet(version, routerTakerFeeBps, operatorBatchFeeBps, winningsExitFeeBps);
    }
}
